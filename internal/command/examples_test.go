package command

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestExamplesUseRealFlags parses the CI workflow and the CronJob manifest as
// YAML and checks every streamctl command line in them against the commands'
// own flag sets: a renamed or removed flag fails here, not in a user's CI.
func TestExamplesUseRealFlags(t *testing.T) {
	files, _ := filepath.Glob("../../examples/ci/*.yml")
	more, _ := filepath.Glob("../../examples/cron/*.yaml")
	files = append(files, more...)
	if len(files) < 2 {
		t.Fatalf("examples not found: %v", files)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			dec := yaml.NewDecoder(strings.NewReader(string(data)))
			var lines [][]string
			docs := 0
			for {
				var doc yaml.Node
				if err := dec.Decode(&doc); err != nil {
					if err.Error() == "EOF" {
						break
					}
					t.Fatalf("invalid YAML: %v", err)
				}
				docs++
				lines = append(lines, streamctlCommands(&doc)...)
			}
			if docs == 0 || len(lines) == 0 {
				t.Fatalf("%d documents, %d streamctl commands", docs, len(lines))
			}
			seen := map[string]bool{}
			for _, args := range lines {
				name, err := checkCommandLine(args)
				if err != nil {
					t.Errorf("streamctl %s: %v", strings.Join(args, " "), err)
				}
				seen[name] = true
			}
			if strings.HasSuffix(path, ".yml") {
				for _, want := range []string{"validate", "fmt", "plan", "apply"} {
					if !seen[want] {
						t.Errorf("the workflow never runs streamctl %s", want)
					}
				}
			} else if !seen["apply"] {
				t.Errorf("the manifest never runs streamctl apply")
			}
		})
	}
}

// streamctlCommands finds the streamctl command lines of a YAML document: in
// shell scripts (GitHub's run:, a container's sh -c arguments), and in a
// container's command and args lists.
func streamctlCommands(n *yaml.Node) [][]string {
	var out [][]string
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			out = append(out, streamctlCommands(c)...)
		}
	case yaml.MappingNode:
		var command, args *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i].Value, n.Content[i+1]
			switch {
			case k == "command" && v.Kind == yaml.SequenceNode:
				command = v
			case k == "args" && v.Kind == yaml.SequenceNode:
				args = v
			case k == "run" && v.Kind == yaml.ScalarNode:
				out = append(out, shellCommands(v.Value)...)
			default:
				out = append(out, streamctlCommands(v)...)
			}
		}
		if command == nil || len(command.Content) == 0 {
			break
		}
		argv := command.Content[1:]
		if args != nil {
			argv = append(append([]*yaml.Node(nil), argv...), args.Content...)
		}
		switch filepath.Base(command.Content[0].Value) {
		case "streamctl":
			var words []string
			for _, a := range argv {
				words = append(words, a.Value)
			}
			out = append(out, words)
		case "sh", "bash":
			for i, a := range argv {
				if a.Value == "-c" && i+1 < len(argv) {
					out = append(out, shellCommands(argv[i+1].Value)...)
				}
			}
		}
	}
	return out
}

// shellCommands splits a shell script into simple commands and returns the
// arguments of those that run streamctl. It knows quotes, line continuations
// and the operators that end a command; it does not expand anything.
func shellCommands(script string) [][]string {
	script = strings.ReplaceAll(script, "\\\n", " ")
	var out [][]string
	var words []string
	var word strings.Builder
	inWord := false
	flushWord := func() {
		if inWord {
			words = append(words, word.String())
			word.Reset()
			inWord = false
		}
	}
	flushCommand := func() {
		flushWord()
		for i, w := range words {
			// Skip leading assignments and keywords: "FOO=1 streamctl …", "then streamctl".
			if filepath.Base(w) == "streamctl" {
				out = append(out, append([]string(nil), words[i+1:]...))
				break
			}
			if !strings.Contains(w, "=") && w != "then" && w != "do" && w != "else" && w != "time" && w != "exec" {
				break
			}
		}
		words = words[:0]
	}
	for i := 0; i < len(script); i++ {
		ch := script[i]
		switch {
		case ch == '\'':
			j := strings.IndexByte(script[i+1:], '\'')
			if j < 0 {
				j = len(script) - i - 1
			}
			word.WriteString(script[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case ch == '"':
			inWord = true
			for i++; i < len(script) && script[i] != '"'; i++ {
				if script[i] == '\\' && i+1 < len(script) {
					i++
				}
				word.WriteByte(script[i])
			}
		case ch == '#' && !inWord:
			for i < len(script) && script[i] != '\n' {
				i++
			}
			flushCommand()
		case ch == '\n' || ch == ';' || ch == '|' || ch == '&' || ch == '(' || ch == ')':
			flushCommand()
		case ch == '>' || ch == '<':
			// A redirection: its target is not an argument.
			flushWord()
			for i+1 < len(script) && (script[i+1] == '>' || script[i+1] == '&') {
				i++
			}
			for i+1 < len(script) && script[i+1] == ' ' {
				i++
			}
			for i+1 < len(script) && !strings.ContainsRune(" \n;|&", rune(script[i+1])) {
				i++
			}
			if n := len(words); n > 0 && (words[n-1] == "2" || words[n-1] == "1") {
				words = words[:n-1]
			}
		case ch == ' ' || ch == '\t':
			flushWord()
		default:
			word.WriteByte(ch)
			inWord = true
		}
	}
	flushCommand()
	return out
}

// checkCommandLine parses args (without "streamctl") as Main would: global
// flags, the longest command name, then the command's flags with its own
// FlagSet. It returns the command's name.
func checkCommandLine(args []string) (string, error) {
	for len(args) > 0 && strings.HasPrefix(args[0], "-chdir=") {
		args = args[1:]
	}
	if len(args) == 0 {
		return "", fmt.Errorf("no command")
	}
	commands := Commands(&Meta{})
	var names []string
	for name := range commands {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
	for _, name := range names {
		words := strings.Fields(name)
		if len(args) < len(words) || strings.Join(args[:len(words)], " ") != name {
			continue
		}
		cmd, _ := commands[name]()
		fl, ok := cmd.(flagged)
		if !ok {
			return name, fmt.Errorf("command %q has no FlagSet to check its flags", name)
		}
		fs := fl.FlagSet()
		if err := fs.Parse(args[len(words):]); err != nil {
			return name, err
		}
		return name, nil
	}
	return "", fmt.Errorf("unknown command %q", args[0])
}

func TestCommandLineCheck(t *testing.T) {
	got := shellCommands("set +e\nFOO=1 streamctl -chdir=\"$DIR\" plan -out=p.plan \\\n  -bogus > out.jsonl 2>&1 # comment\nstatus=$?\nif x; then streamctl fmt -check; fi")
	if len(got) != 2 || strings.Join(got[0], " ") != "-chdir=$DIR plan -out=p.plan -bogus" || strings.Join(got[1], " ") != "fmt -check" {
		t.Fatalf("shellCommands: %q", got)
	}
	if _, err := checkCommandLine(got[0]); err == nil || !strings.Contains(err.Error(), "-bogus") {
		t.Errorf("an unknown flag passed: %v", err)
	}
	if name, err := checkCommandLine([]string{"state", "rm", "-force", "orders"}); err != nil || name != "state rm" {
		t.Errorf("state rm: %s %v", name, err)
	}
	if _, err := checkCommandLine([]string{"deploy"}); err == nil {
		t.Error("an unknown command passed")
	}
}
