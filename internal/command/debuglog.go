package command

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/workspace"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/logged"
	"github.com/streamctl/streamctl/state"
)

// Environment variables of the debug log, as TF_LOG and TF_LOG_PATH are
// Terraform's: STREAMCTL_LOG=debug logs each request made to a destination's
// store or a remote state's (method, key, result, duration), to stderr or to the file
// STREAMCTL_LOG_PATH names (appended to).
const (
	envLog     = "STREAMCTL_LOG"
	envLogPath = "STREAMCTL_LOG_PATH"
)

// getenv reads the command's environment (tests give their own).
func (m *Meta) getenv(key string) string {
	for _, kv := range m.Environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}

// storeLog returns the debug log of store requests, or nil when
// STREAMCTL_LOG does not ask for one.
func (m *Meta) storeLog() (*logged.Log, error) {
	if m.debugLog != nil {
		return m.debugLog, nil
	}
	switch level := strings.ToLower(strings.TrimSpace(m.getenv(envLog))); level {
	case "", "off", "0", "false":
		return nil, nil
	case "debug", "trace":
	default:
		fmt.Fprintf(m.Stderr, "Warning: %s=%s is not a log level; use %s=debug to log each store request. No log is written.\n\n", envLog, level, envLog)
		return nil, nil
	}
	var w io.Writer = m.Stderr
	if path := m.getenv(envLogPath); path != "" {
		f, err := os.OpenFile(m.abs(path), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, fmt.Errorf("open the debug log %s=%s: %w", envLogPath, path, err)
		}
		// Open until the process ends: the log's last lines are written
		// by a command's last requests. Masked as stderr is.
		w = &redactor{w: f, secrets: m.secrets}
	}
	m.debugLog = logged.NewLog(w)
	return m.debugLog, nil
}

// openWorkspace opens cfg's sources and destinations, each destination's
// storage logging its requests when STREAMCTL_LOG=debug.
func (m *Meta) openWorkspace(ctx context.Context, cfg *config.Config) (*workspace.Workspace, error) {
	log, err := m.storeLog()
	if err != nil {
		return nil, err
	}
	ws, err := workspace.Open(ctx, cfg, kinds())
	if err != nil {
		return nil, err
	}
	if wrap := storeWrapper(log); wrap != nil {
		ws.WrapStorages(wrap)
	}
	return ws, nil
}

// stateBackend opens cfg's state backend, a remote state's store logging
// its requests when STREAMCTL_LOG=debug, as the destinations' do.
func (m *Meta) stateBackend(ctx context.Context, cfg *config.Config) (state.Backend, error) {
	log, err := m.storeLog()
	if err != nil {
		return nil, err
	}
	return workspace.StateBackendWrapped(ctx, cfg, kinds(), storeWrapper(log))
}

// storeWrapper logs each store request to log; nil without a log.
func storeWrapper(log *logged.Log) func(providers.Storage) providers.Storage {
	if log == nil {
		return nil
	}
	return func(s providers.Storage) providers.Storage { return logged.Wrap(s, log) }
}
