package command

import (
	"flag"

	"github.com/posener/complete"
)

// Shell completion (streamctl -install-autocomplete): every command completes
// its own flags, from the same FlagSet that parses them.

// flagged is a command whose flags can be listed without running it.
type flagged interface {
	FlagSet() *flag.FlagSet
}

// fileFlags take a file name.
var fileFlags = map[string]bool{"out": true, "var-file": true, "json-out": true, "markdown-out": true, "metrics-file": true}

func completeFlags(fs *flag.FlagSet) complete.Flags {
	out := complete.Flags{}
	fs.VisitAll(func(f *flag.Flag) {
		var p complete.Predictor = complete.PredictNothing
		if fileFlags[f.Name] {
			p = complete.PredictFiles("*")
		}
		out["-"+f.Name] = p
	})
	return out
}

func (c *PlanCommand) AutocompleteArgs() complete.Predictor { return complete.PredictNothing }
func (c *PlanCommand) AutocompleteFlags() complete.Flags    { return completeFlags(c.FlagSet()) }

func (c *ApplyCommand) AutocompleteArgs() complete.Predictor { return complete.PredictFiles("*") }
func (c *ApplyCommand) AutocompleteFlags() complete.Flags    { return completeFlags(c.FlagSet()) }

func (c *ShowCommand) AutocompleteArgs() complete.Predictor { return complete.PredictFiles("*") }
func (c *ShowCommand) AutocompleteFlags() complete.Flags    { return completeFlags(c.FlagSet()) }

func (c *ValidateCommand) AutocompleteArgs() complete.Predictor { return complete.PredictNothing }
func (c *ValidateCommand) AutocompleteFlags() complete.Flags    { return completeFlags(c.FlagSet()) }

func (c *StatusCommand) AutocompleteArgs() complete.Predictor { return complete.PredictNothing }
func (c *StatusCommand) AutocompleteFlags() complete.Flags    { return completeFlags(c.FlagSet()) }

func (c *FmtCommand) AutocompleteArgs() complete.Predictor {
	return complete.PredictOr(complete.PredictDirs("*"), complete.PredictFiles("*.hcl"), complete.PredictFiles("*.vars"))
}
func (c *FmtCommand) AutocompleteFlags() complete.Flags { return completeFlags(c.FlagSet()) }

func (c *LockCommand) AutocompleteArgs() complete.Predictor { return complete.PredictNothing }
func (c *LockCommand) AutocompleteFlags() complete.Flags    { return completeFlags(c.FlagSet()) }

func (c *ForceUnlockCommand) AutocompleteArgs() complete.Predictor { return complete.PredictAnything }
func (c *ForceUnlockCommand) AutocompleteFlags() complete.Flags    { return completeFlags(c.FlagSet()) }

func (c *StateMvCommand) AutocompleteArgs() complete.Predictor { return complete.PredictAnything }
func (c *StateMvCommand) AutocompleteFlags() complete.Flags    { return completeFlags(c.FlagSet()) }

func (c *StateListCommand) AutocompleteArgs() complete.Predictor { return complete.PredictNothing }
func (c *StateListCommand) AutocompleteFlags() complete.Flags    { return completeFlags(c.FlagSet()) }

func (c *StateShowCommand) AutocompleteArgs() complete.Predictor { return complete.PredictAnything }
func (c *StateShowCommand) AutocompleteFlags() complete.Flags    { return completeFlags(c.FlagSet()) }

func (c *StateRmCommand) AutocompleteArgs() complete.Predictor { return complete.PredictAnything }
func (c *StateRmCommand) AutocompleteFlags() complete.Flags    { return completeFlags(c.FlagSet()) }

func (c *StatePullCommand) AutocompleteArgs() complete.Predictor { return complete.PredictNothing }
func (c *StatePullCommand) AutocompleteFlags() complete.Flags    { return completeFlags(c.FlagSet()) }
