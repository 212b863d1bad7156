package command

import "fmt"

// versionView prints the version.
type versionView interface {
	version(v versionInfo) int
}

func (m *Meta) newVersionView(asJSON bool) versionView {
	if asJSON {
		return versionJSON{m.newHumanUI(true)}
	}
	return versionHuman{m}
}

type versionHuman struct{ m *Meta }

func (v versionHuman) version(info versionInfo) int {
	fmt.Fprintf(v.m.Stdout, "streamctl v%s\ncommit %s, built with %s for %s\n", info.Version, info.Commit, info.Go, info.Platform)
	return ExitOK
}

// versionJSON prints one JSON document on one line.
type versionJSON struct{ *humanUI }

func (v versionJSON) version(info versionInfo) int { return v.printJSON(info) }
