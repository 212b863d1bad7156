module github.com/posener/complete

require github.com/hashicorp/go-multierror v1.0.0

go 1.13
