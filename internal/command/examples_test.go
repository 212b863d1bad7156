package command

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
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
	more, _ = filepath.Glob("../../examples/kubernetes/*.yaml")
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

// TestExamplesValidate runs streamctl validate on every configuration in
// examples/: directories of .hcl files, whole configurations in ```hcl blocks
// of Markdown files, and .hcl files embedded in YAML (a ConfigMap's data).
// Each is written to a temporary directory, with the variables its docs set
// (STREAMCTL_VAR_ assignments in the directory's Markdown, a manifest's
// container env), so an example added later is checked without a change here.
func TestExamplesValidate(t *testing.T) {
	configs := exampleConfigs(t, "../../examples")
	// quickstart, kafka-to-lake, multi-account, cron: fewer means the walk or
	// an extractor broke, not that every example is valid.
	if len(configs) < 4 {
		t.Fatalf("found %d configurations in examples/, want at least 4: %v", len(configs), configs)
	}
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range c.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// As a user runs it first, with nothing set, then with what
			// its docs set.
			for _, env := range [][]string{nil, c.env} {
				o := runner{t: t, dir: dir, env: env}.run("validate", "-no-color")
				if o.code != ExitOK || strings.Contains(o.stdout+o.stderr, "Warning") {
					t.Errorf("streamctl validate of %s (env %q): exit %d\n%s%s", c.name, env, o.code, o.stdout, o.stderr)
				}
			}
		})
	}
}

// exampleConfig is one configuration found in examples/: its files by name
// and the STREAMCTL_VAR_ environment its docs give it.
type exampleConfig struct {
	name  string
	files map[string]string
	env   []string
}

func (c exampleConfig) String() string { return c.name }

// exampleConfigs walks root for configurations.
func exampleConfigs(t *testing.T, root string) []exampleConfig {
	t.Helper()
	var out []exampleConfig
	docEnv := map[string][]string{} // directory → STREAMCTL_VAR_ assignments in its Markdown
	hclDirs := map[string]map[string]string{}
	var embedded []exampleConfig
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		dir := filepath.Dir(rel)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		switch filepath.Ext(path) {
		case ".hcl":
			if hclDirs[dir] == nil {
				hclDirs[dir] = map[string]string{}
			}
			hclDirs[dir][d.Name()] = string(data)
		case ".md":
			docEnv[dir] = append(docEnv[dir], docVars(string(data))...)
			for i, block := range markdownConfigs(string(data)) {
				embedded = append(embedded, exampleConfig{name: fmt.Sprintf("%s#hcl%d", rel, i+1), files: map[string]string{"main.hcl": block}})
			}
		case ".yaml", ".yml":
			cfgs, err := yamlConfigs(string(data))
			if err != nil {
				return fmt.Errorf("%s: %v", rel, err)
			}
			for i, c := range cfgs {
				c.name = fmt.Sprintf("%s#%d", rel, i+1)
				embedded = append(embedded, c)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk %s: %v", root, err)
	}
	for dir, files := range hclDirs {
		out = append(out, exampleConfig{name: dir, files: files, env: docEnv[dir]})
	}
	for _, c := range embedded {
		dir := strings.SplitN(c.name, "#", 2)[0]
		c.env = append(append([]string(nil), docEnv[filepath.Dir(dir)]...), c.env...)
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

var (
	hclFence  = regexp.MustCompile("(?ms)^```hcl[ \\t]*\\n(.*?)^```")
	topSource = regexp.MustCompile(`(?m)^source\s+"`)
	topSink   = regexp.MustCompile(`(?m)^sink\s+"`)
	varAssign = regexp.MustCompile(`\b(STREAMCTL_VAR_\w+)=('[^']*'|"[^"]*"|[^\s'"]*)`)
)

// markdownConfigs returns the ```hcl blocks of a Markdown text that are whole
// configurations: they declare a source and a sink at the top level. Other
// blocks are fragments (a column, a destination) and cannot validate alone.
func markdownConfigs(md string) []string {
	var out []string
	for _, m := range hclFence.FindAllStringSubmatch(md, -1) {
		if topSource.MatchString(m[1]) && topSink.MatchString(m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// docVars returns the STREAMCTL_VAR_NAME=value assignments of a text, unquoted,
// as the shell would pass them.
func docVars(text string) []string {
	var out []string
	for _, m := range varAssign.FindAllStringSubmatch(text, -1) {
		v := m[2]
		if len(v) >= 2 && (v[0] == '\'' || v[0] == '"') {
			v = v[1 : len(v)-1]
		}
		out = append(out, m[1]+"="+v)
	}
	return out
}

// yamlConfigs returns the configurations embedded in YAML documents: the
// scalars of a mapping under keys ending in .hcl (a ConfigMap's data, mounted
// together as one directory), each with the STREAMCTL_VAR_ variables of the
// file's environments (container env lists, env mappings): the ConfigMap and
// the CronJob that mounts it are documents of one file. A value that comes
// from elsewhere (a Secret, ${{ secrets.X }}) is a placeholder.
func yamlConfigs(text string) ([]exampleConfig, error) {
	var out []exampleConfig
	var env []string
	dec := yaml.NewDecoder(strings.NewReader(text))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			if err.Error() == "EOF" {
				break
			}
			return nil, err
		}
		var walk func(n *yaml.Node)
		walk = func(n *yaml.Node) {
			if n.Kind == yaml.MappingNode {
				files := map[string]string{}
				fields := map[string]*yaml.Node{}
				for i := 0; i+1 < len(n.Content); i += 2 {
					k, v := n.Content[i].Value, n.Content[i+1]
					fields[k] = v
					switch {
					case strings.HasSuffix(k, ".hcl") && v.Kind == yaml.ScalarNode:
						files[k] = v.Value
					case strings.HasPrefix(k, "STREAMCTL_VAR_") && v.Kind == yaml.ScalarNode:
						env = append(env, k+"="+yamlEnvValue(v.Value))
					}
				}
				if name := fields["name"]; name != nil && strings.HasPrefix(name.Value, "STREAMCTL_VAR_") {
					value := "placeholder"
					if v := fields["value"]; v != nil {
						value = yamlEnvValue(v.Value)
					}
					env = append(env, name.Value+"="+value)
				}
				if len(files) > 0 {
					out = append(out, exampleConfig{files: files})
				}
			}
			for _, c := range n.Content {
				walk(c)
			}
		}
		walk(&doc)
	}
	sort.Strings(env)
	env = slices.Compact(env) // each CronJob of a file sets the same variables
	for i := range out {
		out[i].env = env
	}
	return out, nil
}

func yamlEnvValue(v string) string {
	if strings.Contains(v, "${{") {
		return "placeholder"
	}
	return v
}

func TestEmbeddedConfigExtraction(t *testing.T) {
	md := "# x\n\n```hcl\ncolumn \"id\" {}\n```\n\n```hcl\nsource \"generate\" \"a\" {}\n\nsink \"b\" {}\n```\n\n    export STREAMCTL_VAR_a='[\"x\"]' STREAMCTL_VAR_b=c\n"
	if got := markdownConfigs(md); len(got) != 1 || !strings.HasPrefix(got[0], "source") {
		t.Errorf("markdownConfigs: %q", got)
	}
	if got := strings.Join(docVars(md), " "); got != `STREAMCTL_VAR_a=["x"] STREAMCTL_VAR_b=c` {
		t.Errorf("docVars: %s", got)
	}
	y := "kind: ConfigMap\ndata:\n  main.hcl: |\n    sink \"a\" {}\n  vars.hcl: x\n---\nspec:\n  env:\n    - name: STREAMCTL_VAR_k\n      valueFrom: {secretKeyRef: {name: s, key: k}}\n    - name: STREAMCTL_VAR_n\n      value: \"3\"\n"
	got, err := yamlConfigs(y)
	if err != nil || len(got) != 1 || len(got[0].files) != 2 || got[0].files["main.hcl"] != "sink \"a\" {}\n" {
		t.Fatalf("yamlConfigs: %v %+v", err, got)
	}
	if env := strings.Join(got[0].env, " "); env != "STREAMCTL_VAR_k=placeholder STREAMCTL_VAR_n=3" {
		t.Errorf("yamlConfigs env: %s", env)
	}
}

// TestExamplesInstallStreamctlAsItBuilds: go install PKG@VERSION refuses a
// module whose go.mod replaces other modules, and streamctl's does
// (third_party/). An example or a page that installs streamctl that way
// fails at its first step, before any streamctl command runs.
func TestExamplesInstallStreamctlAsItBuilds(t *testing.T) {
	gomod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^replace\s`).Match(gomod) {
		t.Log("go.mod replaces no module: go install works, nothing to check")
		return
	}
	goInstall := regexp.MustCompile(`go install github\.com/streamctl/streamctl(/[\w/.-]*)?@`)
	checked := 0
	for _, root := range []string{"../../examples", "../../website/content"} {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			checked++
			for i, line := range strings.Split(string(data), "\n") {
				if goInstall.MatchString(line) {
					t.Errorf("%s:%d installs streamctl with go install, which refuses a module with replace directives: build a released tag (make build) or take a release archive, as the README says\n\t%s", path, i+1, strings.TrimSpace(line))
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked < 10 {
		t.Fatalf("checked %d files of examples/ and website/content/", checked)
	}
}

// TestExamplesRunInTheirImage: the Containerfile's default image has no
// shell (FROM scratch), so a container of the examples that runs a shell
// script must use the image of its worker target, which adds /bin/sh; one
// that runs streamctl itself uses the default image. A script in the
// default image fails with "exec /bin/sh: no such file or directory".
func TestExamplesRunInTheirImage(t *testing.T) {
	containerfile, err := os.ReadFile("../../Containerfile")
	if err != nil {
		t.Fatal(err)
	}
	worker := regexp.MustCompile(`(?ms)^FROM \S+ AS worker\n(.*?)(^FROM |\z)`).FindSubmatch(containerfile)
	if worker == nil || !regexp.MustCompile(`(?m)^COPY .* /bin/sh$`).Match(worker[1]) {
		t.Fatalf("the Containerfile has no worker stage that adds /bin/sh")
	}
	files, _ := filepath.Glob("../../examples/*/*.yaml")
	containers := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(strings.NewReader(string(data)))
		for {
			var doc yaml.Node
			if err := dec.Decode(&doc); err != nil {
				if err.Error() == "EOF" {
					break
				}
				t.Fatalf("%s: %v", path, err)
			}
			var walk func(n *yaml.Node)
			walk = func(n *yaml.Node) {
				if n.Kind == yaml.MappingNode {
					var image, command string
					for i := 0; i+1 < len(n.Content); i += 2 {
						switch k, v := n.Content[i].Value, n.Content[i+1]; {
						case k == "image":
							image = v.Value
						case k == "command" && v.Kind == yaml.SequenceNode && len(v.Content) > 0:
							command = filepath.Base(v.Content[0].Value)
						}
					}
					if image != "" {
						containers++
						shell := command == "sh" || command == "bash"
						inWorker := strings.Contains(image, "/streamctl-worker:")
						if shell && !inWorker {
							t.Errorf("%s: a container runs a %s script in image %s, which has no shell: use the worker image (Containerfile --target worker)", path, command, image)
						}
						if !shell && inWorker {
							t.Errorf("%s: a container runs %q in the worker image %s: it needs no shell, use the default image", path, command, image)
						}
					}
				}
				for _, c := range n.Content {
					walk(c)
				}
			}
			walk(&doc)
		}
	}
	if containers < 3 {
		t.Fatalf("found %d containers in %v", containers, files)
	}
}

// TestExamplesCanWriteTheirHostFolders: streamctl's image runs as the
// Containerfile's USER, not root, and a hostPath folder the kubelet makes
// (or the node's exporter setup made) belongs to root, mode 0755. A
// container of the examples that writes into one (the metrics file, by a
// rename) needs an init container that gives the folder to that user first,
// or every run fails at its end with "write -metrics-file: permission
// denied".
func TestExamplesCanWriteTheirHostFolders(t *testing.T) {
	containerfile, err := os.ReadFile("../../Containerfile")
	if err != nil {
		t.Fatal(err)
	}
	user := regexp.MustCompile(`(?m)^USER (\d+)`).FindSubmatch(containerfile)
	if user == nil {
		t.Fatalf("the Containerfile names no numeric USER")
	}
	uid := string(user[1])
	type mount struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
		ReadOnly  bool   `yaml:"readOnly"`
	}
	type container struct {
		Image        string   `yaml:"image"`
		Command      []string `yaml:"command"`
		VolumeMounts []mount  `yaml:"volumeMounts"`
	}
	type podSpec struct {
		InitContainers []container `yaml:"initContainers"`
		Containers     []container `yaml:"containers"`
		Volumes        []struct {
			Name     string    `yaml:"name"`
			HostPath *struct{} `yaml:"hostPath"`
		} `yaml:"volumes"`
	}
	files, _ := filepath.Glob("../../examples/*/*.yaml")
	written := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(strings.NewReader(string(data)))
		for {
			var doc struct {
				Spec struct {
					JobTemplate struct {
						Spec struct {
							Template struct {
								Spec podSpec `yaml:"spec"`
							} `yaml:"template"`
						} `yaml:"spec"`
					} `yaml:"jobTemplate"`
				} `yaml:"spec"`
			}
			if err := dec.Decode(&doc); err != nil {
				if err.Error() == "EOF" {
					break
				}
				t.Fatalf("%s: %v", path, err)
			}
			pod := doc.Spec.JobTemplate.Spec.Template.Spec
			host := map[string]bool{}
			for _, v := range pod.Volumes {
				host[v.Name] = v.HostPath != nil
			}
			for _, c := range pod.Containers {
				if !strings.Contains(c.Image, "/streamctl") {
					continue
				}
				for _, m := range c.VolumeMounts {
					if !host[m.Name] || m.ReadOnly {
						continue
					}
					written++
					given := false
					for _, ic := range pod.InitContainers {
						for _, im := range ic.VolumeMounts {
							if im.Name == m.Name && strings.Join(ic.Command, " ") == "chown "+uid+" "+im.MountPath {
								given = true
							}
						}
					}
					if !given {
						t.Errorf("%s: streamctl (user %s) writes into hostPath volume %q, which belongs to root: no init container runs chown %s on it", path, uid, m.Name, uid)
					}
				}
			}
		}
	}
	if written < 2 {
		t.Fatalf("found %d writable hostPath mounts of streamctl containers in %v", written, files)
	}
}
