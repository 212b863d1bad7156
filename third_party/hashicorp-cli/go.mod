module github.com/hashicorp/cli

go 1.20

require (
	github.com/armon/go-radix v1.0.0
	github.com/bgentry/speakeasy v0.1.0
	github.com/fatih/color v1.16.0
	github.com/mattn/go-isatty v0.0.20
	github.com/posener/complete v1.2.3
)

require (
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/hashicorp/errwrap v1.0.0 // indirect
	github.com/hashicorp/go-multierror v1.0.0 // indirect
	github.com/mattn/go-colorable v0.1.13 // indirect
	github.com/stretchr/testify v1.6.1 // indirect
	golang.org/x/sys v0.29.0 // indirect
)
