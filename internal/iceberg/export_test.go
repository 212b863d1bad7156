package iceberg

// SetHookBeforeCommit sets what runs between an append's read of the table
// and its commit, until the test ends (cleanup resets it).
func SetHookBeforeCommit(hook func()) (reset func()) {
	hookBeforeCommit = hook
	return func() { hookBeforeCommit = nil }
}

// SetHookBeforeReplace sets what runs between a compaction's read of the
// table and its commit, until reset.
func SetHookBeforeReplace(hook func()) (reset func()) {
	hookBeforeReplace = hook
	return func() { hookBeforeReplace = nil }
}

// SetHookBeforeExpire sets what runs between an expiry's read of the table
// and its commit, until reset.
func SetHookBeforeExpire(hook func()) (reset func()) {
	hookBeforeExpire = hook
	return func() { hookBeforeExpire = nil }
}
