//go:build noasm || !(amd64 || arm64) || (arm64 && appengine)

package kernels

// PATCH(streamctl): this file is streamctl's, not upstream's. Where no
// assembly is built, the constant factor functions stay the Go ones.
func pickConstantFactor() {}
