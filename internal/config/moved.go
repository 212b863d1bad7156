package config

import (
	"github.com/hashicorp/hcl/v2"
)

// Moved is a `moved { from = sink.A  to = sink.B }` block: sink B is what
// sink A was. Apply carries A's checkpoint, manifests and destination
// ownership over to B, as Terraform's moved blocks carry a resource's state.
type Moved struct {
	From, To  string
	DeclRange hcl.Range
}

var movedSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "from", Required: true},
		{Name: "to", Required: true},
	},
}

// MovedFrom returns the former names of sink name, most recent first, by
// following the moved blocks back (A → B then B → C gives C: B, A).
func (c *Config) MovedFrom(name string) []string {
	var out []string
	seen := map[string]bool{name: true}
	for {
		var prev string
		for _, m := range c.Moved {
			if m.To == name {
				prev = m.From
			}
		}
		if prev == "" || seen[prev] {
			return out
		}
		seen[prev] = true
		out = append(out, prev)
		name = prev
	}
}

func (l *loader) decodeMoved(b *hcl.Block) {
	content, diags := b.Body.Content(movedSchema)
	l.diags = append(l.diags, diags...)
	if content == nil || diags.HasErrors() {
		return
	}
	m := &Moved{DeclRange: b.DefRange}
	m.From = l.sinkAddress(content.Attributes["from"])
	m.To = l.sinkAddress(content.Attributes["to"])
	if m.From == "" || m.To == "" {
		return
	}
	l.cfg.Moved = append(l.cfg.Moved, m)
}

// sinkAddress reads an attribute whose value is a sink address: sink.NAME.
func (l *loader) sinkAddress(a *hcl.Attribute) string {
	trav, diags := hcl.AbsTraversalForExpr(a.Expr)
	if diags.HasErrors() || len(trav) != 2 || trav.RootName() != "sink" {
		rng := a.Expr.Range()
		l.errorf(&rng, "Invalid sink address", "A moved block names sinks by address: sink.NAME, e.g. from = sink.orders.")
		return ""
	}
	attr, ok := trav[1].(hcl.TraverseAttr)
	if !ok {
		rng := a.Expr.Range()
		l.errorf(&rng, "Invalid sink address", "A moved block names sinks by address: sink.NAME, e.g. from = sink.orders.")
		return ""
	}
	return attr.Name
}

// checkMoved validates the moved blocks against the sinks, once all are
// decoded: a move ends at a declared sink and starts at an undeclared one.
func (l *loader) checkMoved() {
	from := map[string]*Moved{}
	for _, m := range l.cfg.Moved {
		rng := m.DeclRange
		switch {
		case m.From == m.To:
			l.errorf(&rng, "Invalid moved block", "sink.%s is moved to itself.", m.From)
			continue
		case l.cfg.Sink(m.To) == nil:
			l.errorf(&rng, "Moved to an undeclared sink", "This block moves sink.%s to sink.%s, but the configuration declares no sink %q. A moved block names the sink's new name in to.", m.From, m.To, m.To)
		case l.cfg.Sink(m.From) != nil:
			l.errorf(&rng, "Moved from a declared sink", "This block moves sink.%s to sink.%s, but sink %q is still declared. Remove or rename its sink block: a sink is either the old name or the new one.", m.From, m.To, m.From)
		}
		if prev, dup := from[m.From]; dup {
			l.errorf(&rng, "Ambiguous move", "sink.%s is already moved to sink.%s at %s.", m.From, prev.To, prev.DeclRange)
			continue
		}
		from[m.From] = m
	}
}

func movedSchemaDoc() *SchemaBlock {
	return &SchemaBlock{
		Type:    "moved",
		Summary: "Declares that a sink was renamed, so that its checkpoint, manifests and destinations move with it.",
		Description: "Without it, a renamed sink is a new sink that would start over from the first offset in folders that " +
			"belong to the old one, and `plan` refuses it. With it, `apply` first copies the old sink's manifests under the new " +
			"name in every destination, hands the destinations' ownership to the new name, renames the checkpoint in the state, " +
			"then removes the old manifests; data files keep their names, and batch numbers continue. `plan` shows the move. " +
			"Keep the block until every state that holds the old name has been applied; `streamctl state mv OLD NEW` does the same " +
			"from the command line.",
		Attributes: []*SchemaAttribute{
			{Name: "from", Type: "reference", Required: true, Description: "The sink's former name, as an address.", Example: "sink.orders_v1"},
			{Name: "to", Type: "reference", Required: true, Description: "The sink's new name: a declared sink.", Example: "sink.orders"},
		},
		Example: `source "generate" "orders" {
  records_per_partition = 1000
}

sink "orders" {
  source = source.generate.orders

  destination "local" "lake" {
    path = "out/lake"
  }
}

moved {
  from = sink.orders_v1
  to   = sink.orders
}
`,
	}
}
