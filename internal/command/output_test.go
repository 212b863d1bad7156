package command

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/render"
)

// jsonLines parses -json output: every line one object, the first a version
// message, each with the common fields.
func jsonLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var msgs []map[string]any
	for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %d is not JSON: %v\n%s", i+1, err, line)
		}
		for _, k := range []string{"@level", "@message", "@timestamp", "@module", "type"} {
			if _, ok := m[k]; !ok {
				t.Errorf("line %d has no %s: %s", i+1, k, line)
			}
		}
		msgs = append(msgs, m)
	}
	if len(msgs) == 0 || msgs[0]["type"] != "version" || msgs[0]["ui"] != render.UIVersion {
		t.Fatalf("the first message is not the version:\n%s", out)
	}
	return msgs
}

func types(msgs []map[string]any) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m["type"].(string))
	}
	return out
}

func indentJSON(t *testing.T, doc string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(doc), "", "  "); err != nil {
		t.Fatalf("not one JSON document: %v\n%s", err, doc)
	}
	return buf.String() + "\n"
}

func TestPlanJSON(t *testing.T) {
	c := newCLI(t, testConfig)
	o := c.must(ExitChanges, "plan", "-json", "-detailed-exitcode")
	golden(t, "plan.jsonl", o.stdout)
	msgs := jsonLines(t, o.stdout)
	want := "version sink_plan planned_batch planned_batch planned_batch plan_summary"
	if got := strings.Join(types(msgs), " "); got != want {
		t.Errorf("types: %s, want %s", got, want)
	}
	last := msgs[len(msgs)-1]
	if last["@message"] != "Plan: 3 batches, 3,000 records to 2 destinations." {
		t.Errorf("plan_summary message: %v", last["@message"])
	}
	if o.stderr != "" {
		t.Errorf("stderr: %s", o.stderr)
	}
}

func TestApplyJSON(t *testing.T) {
	c := newCLI(t, testConfig)
	o := c.must(ExitOK, "apply", "-auto-approve", "-json")
	golden(t, "apply.jsonl", sortParallel(o.stdout, `"type":"destination_committed"`))
	msgs := jsonLines(t, o.stdout)
	seen := map[string]int{}
	for _, m := range msgs {
		seen[m["type"].(string)]++
	}
	for typ, n := range map[string]int{"planned_batch": 3, "batch_start": 3, "destination_committed": 6, "batch_committed": 3, "batch_progress": 3, "apply_summary": 1} {
		if seen[typ] != n {
			t.Errorf("%d %s messages, want %d", seen[typ], typ, n)
		}
	}
	sum := msgs[len(msgs)-1]
	if sum["type"] != "apply_summary" || !strings.HasPrefix(sum["@message"].(string), "Apply complete! 3 batches, 3,000 records, 6 files") {
		t.Errorf("last message: %v", sum)
	}
	// From cron: nothing to do is success, with a summary.
	o = c.must(ExitOK, "apply", "-auto-approve", "-json", "-input=false")
	msgs = jsonLines(t, o.stdout)
	if got := strings.Join(types(msgs), " "); got != "version sink_plan plan_summary apply_summary" {
		t.Errorf("nothing to do: %s", got)
	}
	// -json cannot ask.
	o = c.must(ExitError, "apply", "-json")
	if !strings.Contains(o.stderr, "-json needs -auto-approve") {
		t.Errorf("apply -json without -auto-approve: %s", o.stderr)
	}
}

func TestJSONErrorsAreDiagnostics(t *testing.T) {
	bad := newCLI(t, testConfig+"\nsink \"x\" {\n  source = source.kafka.nope\n}\n")
	o := bad.must(ExitError, "plan", "-json")
	msgs := jsonLines(t, o.stdout)
	var diags []map[string]any
	for _, m := range msgs {
		if m["type"] == "diagnostic" {
			diags = append(diags, m["diagnostic"].(map[string]any))
		}
	}
	if len(diags) != 2 {
		t.Fatalf("%d diagnostics:\n%s", len(diags), o.stdout)
	}
	var found bool
	for _, d := range diags {
		if d["summary"] == "Reference to undeclared source" {
			found = true
			rng := d["range"].(map[string]any)
			snip := d["snippet"].(map[string]any)
			if rng["start"].(map[string]any)["line"].(float64) != 28 || snip["code"] != "  source = source.kafka.nope" || *strptr(snip["context"]) != `sink "x"` {
				t.Errorf("diagnostic: %v", d)
			}
			code := snip["code"].(string)
			hs, he := int(snip["highlight_start_offset"].(float64)), int(snip["highlight_end_offset"].(float64))
			if code[hs:he] != "source.kafka.nope" {
				t.Errorf("highlight %q", code[hs:he])
			}
		}
	}
	if !found {
		t.Errorf("no undeclared source diagnostic:\n%s", o.stdout)
	}
	if o.stderr != "" {
		t.Errorf("-json wrote to stderr: %s", o.stderr)
	}
}

func strptr(v any) *string {
	s, _ := v.(string)
	return &s
}

func TestValidateJSON(t *testing.T) {
	c := newCLI(t, testConfig)
	o := c.must(ExitOK, "validate", "-json")
	golden(t, "validate.jsonl", o.stdout)
	bad := newCLI(t, testConfig+"\nsink \"x\" {\n  source = source.kafka.nope\n  colour = 1\n}\n")
	o = bad.must(ExitError, "validate", "-json")
	// The file names are temporary directories: compare the rest.
	golden(t, "validate-invalid.jsonl", strings.ReplaceAll(o.stdout, bad.dir, "DIR"))
}

func TestShowJSON(t *testing.T) {
	c := newCLI(t, testConfig)
	o := c.must(ExitOK, "show", "-json")
	golden(t, "show-state-empty.json", strings.ReplaceAll(indentJSON(t, o.stdout), c.dir, "DIR"))
	c.must(ExitOK, "plan", "-out=p.plan")
	o = c.must(ExitOK, "show", "-json", "p.plan")
	golden(t, "show-plan.json", indentJSON(t, o.stdout))
	c.must(ExitOK, "apply", "p.plan")
	o = c.must(ExitOK, "show", "-json")
	var doc map[string]any
	json.Unmarshal([]byte(o.stdout), &doc)
	// The lineage is random: blank it.
	doc["lineage"] = "LINEAGE"
	data, _ := json.MarshalIndent(doc, "", "  ")
	golden(t, "show-state.json", strings.ReplaceAll(string(data), c.dir, "DIR")+"\n")
}

func TestMarkdown(t *testing.T) {
	c := newCLI(t, testConfig)
	o := c.must(ExitOK, "plan", "-markdown", "-out=p.plan")
	golden(t, "plan.md", o.stdout)
	if !strings.Contains(o.stderr, "Saved the plan to p.plan") {
		t.Errorf("the saved-plan note belongs on stderr with -markdown: %q", o.stderr)
	}
	show := c.must(ExitOK, "show", "-markdown", "p.plan")
	if show.stdout != o.stdout {
		t.Errorf("show -markdown differs from plan -markdown:\n%s", show.stdout)
	}
	c.must(ExitError, "show", "-markdown")
	c.must(ExitError, "plan", "-markdown", "-json")
}

// TestPlanOnceForPeopleAndMachines: CI plans once and gets the plan file, the
// JSON lines, the Markdown and the human rendering.
func TestPlanOnceForPeopleAndMachines(t *testing.T) {
	c := newCLI(t, testConfig)
	o := c.must(ExitChanges, "plan", "-out=p.plan", "-json-out=plan.jsonl", "-markdown-out=plan.md", "-detailed-exitcode")
	golden(t, "plan.txt", strings.Split(o.stdout, "\n\nSaved the plan")[0]+"\n")
	jsonl, err := os.ReadFile(filepath.Join(c.dir, "plan.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	msgs := jsonLines(t, string(jsonl))
	if msgs[len(msgs)-1]["type"] != "plan_summary" {
		t.Errorf("-json-out: %s", jsonl)
	}
	md, _ := os.ReadFile(filepath.Join(c.dir, "plan.md"))
	show := c.must(ExitOK, "show", "-markdown", "p.plan")
	if string(md) != show.stdout {
		t.Errorf("-markdown-out differs from show -markdown:\n%s", md)
	}
	// plan -out -json: the saved plan is reported as a log message.
	o = c.must(ExitOK, "plan", "-out=p2.plan", "-json")
	msgs = jsonLines(t, o.stdout)
	if last := msgs[len(msgs)-1]; last["type"] != "log" || !strings.Contains(last["@message"].(string), "p2.plan") {
		t.Errorf("plan -out -json: %v", last)
	}
	c.must(ExitOK, "apply", "p2.plan")
}
