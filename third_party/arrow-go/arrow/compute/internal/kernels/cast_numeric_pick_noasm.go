//go:build noasm || !(amd64 || arm64)

package kernels

// PATCH(streamctl): this file is streamctl's, not upstream's. Where no
// assembly is built, castNumericUnsafe keeps castNumericGo.
func pickCastNumeric() {}
