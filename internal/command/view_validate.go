package command

import (
	"fmt"

	"github.com/streamctl/streamctl/internal/render"
)

// validateView is what validate reports after the diagnostics: the verdict.
type validateView interface {
	ui
	validated(sum validateSummary)
}

func (m *Meta) newValidateView(asJSON, noColor bool) validateView {
	if asJSON {
		return &validateJSON{jsonUI: m.newJSONUI()}
	}
	return &validateHuman{humanUI: m.newHumanUI(noColor)}
}

// validateHuman says only success: the diagnostics said everything else.
type validateHuman struct{ *humanUI }

func (v *validateHuman) validated(sum validateSummary) {
	if sum.Valid {
		fmt.Fprintf(v.m.Stdout, "Success! The configuration is valid: %s, %s.\n", render.Plural(int64(sum.Sources), "source", "sources"), render.Plural(int64(sum.Sinks), "sink", "sinks"))
	}
}

// validateJSON ends the stream with validate_summary, valid or not.
type validateJSON struct{ *jsonUI }

func (v *validateJSON) validated(sum validateSummary) {
	msg := "The configuration is valid."
	if !sum.Valid {
		msg = "The configuration is invalid."
	}
	v.json.Emit("info", "validate_summary", msg, "validate", sum)
}
