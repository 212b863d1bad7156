package install

import (
	"fmt"
	"os"
	"path/filepath"
)

// (un)install in fish

type fish struct {
	configDir string
}

func (f fish) IsInstalled(cmd, bin string) bool {
	completionFile := f.getCompletionFilePath(cmd)
	if _, err := os.Stat(completionFile); err == nil {
		return true
	}
	return false
}

func (f fish) Install(cmd, bin string) error {
	if f.IsInstalled(cmd, bin) {
		return fmt.Errorf("already installed at %s", f.getCompletionFilePath(cmd))
	}

	completionFile := f.getCompletionFilePath(cmd)
	completeCmd, err := f.cmd(cmd, bin)
	if err != nil {
		return err
	}

	return createFile(completionFile, completeCmd)
}

func (f fish) Uninstall(cmd, bin string) error {
	if !f.IsInstalled(cmd, bin) {
		return fmt.Errorf("does not installed in %s", f.configDir)
	}

	completionFile := f.getCompletionFilePath(cmd)
	return os.Remove(completionFile)
}

func (f fish) getCompletionFilePath(cmd string) string {
	return filepath.Join(f.configDir, "completions", fmt.Sprintf("%s.fish", cmd))
}

// PATCH(streamctl): the script is formatted with fmt instead of text/template,
// giving the same bytes: a reachable text/template execution makes the linker
// keep every exported method of every type in the binary.
func (f fish) cmd(cmd, bin string) (string, error) {
	return fmt.Sprintf(`
function __complete_%[1]s
    set -lx COMP_LINE (commandline -cp)
    test -z (commandline -ct)
    and set COMP_LINE "$COMP_LINE "
    %[2]s
end
complete -f -c %[1]s -a "(__complete_%[1]s)"
`, cmd, bin), nil
}
