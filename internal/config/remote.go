package config

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/streamctl/streamctl/providers/azblob"
	"github.com/streamctl/streamctl/providers/kafka"
	"github.com/streamctl/streamctl/providers/s3"
)

// Secrets of each block type. A secret is accepted only from a sensitive
// variable (or the environment, read by the provider), never as plain text in
// a file that ends up in version control.
var (
	s3Secrets     = []string{"access_key", "secret_key"}
	azblobSecrets = []string{"sas_token", "shared_key", "connection_string"}
)

func init() {
	destinationTypes["s3"] = func(l *loader, b *hcl.Block) any {
		c := &s3.Config{}
		if !l.decode(b.Body, c) {
			return nil
		}
		l.checkSecrets(b.Body, s3Secrets)
		l.checkProvider(b, c.Validate())
		return c
	}
	destinationTypes["azblob"] = func(l *loader, b *hcl.Block) any {
		c := &azblob.Config{}
		if !l.decode(b.Body, c) {
			return nil
		}
		l.checkSecrets(b.Body, azblobSecrets)
		l.checkProvider(b, c.Validate())
		return c
	}
	locators["s3"] = func(cfg any) string {
		c := cfg.(*s3.Config)
		return "s3://" + c.Endpoint + "/" + c.Bucket + "/" + strings.Trim(c.Prefix, "/")
	}
	locators["azblob"] = func(cfg any) string {
		c := cfg.(*azblob.Config)
		return "azblob://" + c.AccountURL + c.AccountName + "/" + c.Container + "/" + strings.Trim(c.Prefix, "/")
	}

	sourceTypes["kafka"] = func(l *loader, b *hcl.Block) any {
		c := &kafka.Config{}
		if !l.decode(b.Body, c) {
			return nil
		}
		if c.SASL != nil {
			if sasl := nestedBlock(b.Body, "sasl"); sasl != nil {
				l.checkSecrets(sasl, []string{"password"})
			}
			if c.SASL.Password == "" {
				c.SASL.Password = l.getenv("KAFKA_SASL_PASSWORD")
			}
		}
		l.checkProvider(b, c.Validate())
		return c
	}

	stateTypes["s3"] = func(l *loader, b *hcl.Block) {
		var raw struct {
			Key    string   `hcl:"key"`
			Remain hcl.Body `hcl:",remain"`
		}
		if !l.decode(b.Body, &raw) {
			return
		}
		c := &s3.Config{}
		if !l.decode(raw.Remain, c) {
			return
		}
		l.checkSecrets(b.Body, s3Secrets)
		l.checkProvider(b, c.Validate())
		l.setRemoteState(b, raw.Key, c)
	}
	stateTypes["azblob"] = func(l *loader, b *hcl.Block) {
		var raw struct {
			Key    string   `hcl:"key"`
			Remain hcl.Body `hcl:",remain"`
		}
		if !l.decode(b.Body, &raw) {
			return
		}
		c := &azblob.Config{}
		if !l.decode(raw.Remain, c) {
			return
		}
		if c.AccessTier != "" {
			l.errorf(attrRange(b.Body, "access_tier", &b.DefRange), "Invalid access_tier", "The state is rewritten on every batch; a Cool or Cold tier would be charged early deletion each time. Remove access_tier from the state block.")
		}
		l.checkSecrets(b.Body, azblobSecrets)
		l.checkProvider(b, c.Validate())
		l.setRemoteState(b, raw.Key, c)
	}
}

func (l *loader) setRemoteState(b *hcl.Block, key string, cfg any) {
	key = strings.Trim(key, "/")
	if key == "" {
		l.errorf(attrRange(b.Body, "key", &b.DefRange), "Invalid key", "key names the state object, e.g. \"streamctl/orders.json\"; it must not be empty.")
		return
	}
	l.cfg.State.Remote = cfg
	l.cfg.State.Key = key
	l.cfg.State.Path = ""
}

// checkSecrets refuses secret attributes whose value is not marked sensitive.
func (l *loader) checkSecrets(body hcl.Body, names []string) {
	l.eachValue(body, names, func(n string, a *hcl.Attribute, v cty.Value) {
		if !v.IsNull() && !v.HasMark(SensitiveMark) {
			l.errorf(a.Expr.Range().Ptr(), "Secret from plain text", "%s is a secret and must come from a variable declared with sensitive = true (or from the environment), so that it is never written in a configuration file nor shown in output.", n)
		}
	})
}

// eachValue evaluates the attributes names of body that are set, and calls
// fn with each value, marks kept. Errors are left to the block's decoding,
// which reports them.
func (l *loader) eachValue(body hcl.Body, names []string, fn func(name string, a *hcl.Attribute, v cty.Value)) {
	schema := &hcl.BodySchema{}
	for _, n := range names {
		schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: n})
	}
	content, _, _ := body.PartialContent(schema)
	if content == nil {
		return
	}
	for _, n := range names {
		a, ok := content.Attributes[n]
		if !ok {
			continue
		}
		if v, diags := a.Expr.Value(l.ctx); !diags.HasErrors() {
			fn(n, a, v)
		}
	}
}

// checkProvider turns a provider's Validate errors into diagnostics that point
// at the offending attribute.
func (l *loader) checkProvider(b *hcl.Block, err error) {
	if err == nil {
		return
	}
	var errs []error
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		errs = joined.Unwrap()
	} else {
		errs = []error{err}
	}
	for _, e := range errs {
		attr := ""
		var s3e *s3.ConfigError
		var aze *azblob.ConfigError
		switch {
		case errors.As(e, &s3e):
			attr = s3e.Attribute
		case errors.As(e, &aze):
			attr = aze.Attribute
		default:
			// Provider messages start with the attribute's name.
			attr, _, _ = strings.Cut(e.Error(), ":")
		}
		l.errorf(attrRange(b.Body, attr, &b.DefRange), fmt.Sprintf("Invalid %s %q", b.Type, strings.Join(b.Labels, ".")), "%v.", strings.TrimSuffix(e.Error(), "."))
	}
}

// attrRange is the range of attribute name in body, or def when absent.
func attrRange(body hcl.Body, name string, def *hcl.Range) *hcl.Range {
	if sb, ok := body.(*hclsyntax.Body); ok {
		if a, ok := sb.Attributes[name]; ok {
			return a.Expr.Range().Ptr()
		}
	}
	return def
}

// nestedBlock returns the body of the first block of type typ inside body.
func nestedBlock(body hcl.Body, typ string) hcl.Body {
	if sb, ok := body.(*hclsyntax.Body); ok {
		for _, blk := range sb.Blocks {
			if blk.Type == typ {
				return blk.Body
			}
		}
	}
	return nil
}

// checkSharedCommitGroups refuses commit_group on a Kafka source read by more
// than one sink: each sink commits its own offsets, so the group would flip
// between them and show neither.
func (l *loader) checkSharedCommitGroups() {
	readers := map[string][]string{}
	for _, s := range l.cfg.Sinks {
		readers[s.Source] = append(readers[s.Source], s.Name)
	}
	for key, src := range l.cfg.Sources {
		k, ok := src.Config.(*kafka.Config)
		if !ok || k.CommitGroup == "" || len(readers[key]) < 2 {
			continue
		}
		rng := src.DeclRange
		l.errorf(&rng, "commit_group on a shared source", "source.%s has commit_group = %q and is read by sinks %s: each would commit its own offsets to the group. Give each sink its own source block (same brokers and topic) with its own commit_group.", key, k.CommitGroup, strings.Join(readers[key], ", "))
	}
}
