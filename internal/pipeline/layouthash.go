package pipeline

// A sink's layout hash (state.Batch.Layout) is config.Layout.Hash, over the
// settings the configuration declares, and the settings the state keeps
// beside it are config.Layout.Settings: every field of Layout that decides
// the files must be one of config.Layout's, hashed there, or be listed in
// hashExempt with the reason (TestLayoutFieldsAreHashed).

// hashExempt are the Layout fields the layout hash leaves out, and why.
var hashExempt = map[string]string{
	"Destinations": "a batch's destinations are logged with it (state.Batch.Destinations) and checked on their own",
	"Shard":        "a shard's files are named apart and its batches are its own: the shard is its checkpoint's, not an output setting",
	"Sequential":   "the files are the same on one goroutine or two",
	"budget":       "memory bounds where row groups end only within the row-group size: tests lower it",
	"maxOpen":      "past it, targets are sorted: the same files, names and records, only row groups end elsewhere; tests lower it",
	"runBytes":     "how sorted rows are cut into runs does not change their order: tests lower it",
}
