// Command gen builds the documentation site: `make website` runs it from the
// repository's top directory and writes static HTML into website/public.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/streamctl/streamctl/internal/website"
)

func main() {
	root := flag.String("root", ".", "the repository's top directory")
	out := flag.String("out", "website/public", "where to write the site")
	flag.Parse()
	site, err := website.Build(*root, *out)
	if err != nil {
		fmt.Fprintf(os.Stderr, "website: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("website: %d pages written to %s\n", len(site.Pages), *out)
}
