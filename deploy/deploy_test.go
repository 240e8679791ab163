// Package deploy_test checks the packaging that no image engine can run here:
// the Dockerfile's build line produces a static binary, and the Dockerfile,
// compose file and Kubernetes manifests parse, use only fields we declare
// (strict decoding into minimal API structs) and agree with each other and with
// the real service (ports, probe paths, PRECISIOND_* settings).
package deploy_test

import (
	"bufio"
	"bytes"
	"debug/elf"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/precisiond/precisiond/api"
	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/s3test"
	"github.com/precisiond/precisiond/tools"
)

func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..")
}

func readFile(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// settings are the PRECISIOND_* variables the binary reads, taken from its
// configuration source so that a renamed setting fails this test.
func settings(t *testing.T) map[string]bool {
	t.Helper()
	src := append(readFile(t, "cmd/precisiond/config.go"), readFile(t, "cmd/precisiond/access.go")...)
	out := map[string]bool{}
	for _, m := range regexp.MustCompile(`"(PRECISIOND_[A-Z_]+)"`).FindAllSubmatch(src, -1) {
		out[string(m[1])] = true
	}
	if len(out) < 9 {
		t.Fatalf("found only %d settings in config.go", len(out))
	}
	// The standard AWS variables an s3:// store reads (internal/blob).
	for _, m := range regexp.MustCompile(`getenv\("(AWS_[A-Z0-9_]+)"\)`).FindAllSubmatch(readFile(t, "internal/blob/location.go"), -1) {
		out[string(m[1])] = true
	}
	if !out["AWS_ENDPOINT_URL"] || !out["AWS_ACCESS_KEY_ID"] {
		t.Fatal("the AWS variables of the S3 store were not found in internal/blob/location.go")
	}
	return out
}

// ---- Dockerfile ----

type dockerInstr struct {
	cmd  string // upper-case instruction
	args string
}

// parseDockerfile joins continuation lines and drops comments.
func parseDockerfile(t *testing.T) []dockerInstr {
	t.Helper()
	var out []dockerInstr
	sc := bufio.NewScanner(bytes.NewReader(readFile(t, "Dockerfile")))
	var cur strings.Builder
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if cur.Len() == 0 && (line == "" || strings.HasPrefix(line, "#")) {
			continue
		}
		if strings.HasSuffix(line, `\`) {
			cur.WriteString(strings.TrimSuffix(line, `\`) + " ")
			continue
		}
		cur.WriteString(line)
		full := cur.String()
		cur.Reset()
		cmd, args, _ := strings.Cut(full, " ")
		out = append(out, dockerInstr{strings.ToUpper(cmd), strings.TrimSpace(args)})
	}
	return out
}

// shellWords splits a command line the way sh does for simple quoting.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	quote, inWord := byte(0), false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '"' || c == '\'':
			quote, inWord = c, true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

func TestDockerfile(t *testing.T) {
	ins := parseDockerfile(t)
	var froms []string
	env := map[string]string{}
	var expose, user, healthcheck, volume, entrypoint string
	for _, in := range ins {
		switch in.cmd {
		case "FROM":
			froms = append(froms, in.args)
		case "ENV":
			addEnv(t, env, in.args)
		case "EXPOSE":
			expose = in.args
		case "USER":
			user = in.args
		case "HEALTHCHECK":
			healthcheck = in.args
		case "VOLUME":
			volume = in.args
		case "ENTRYPOINT":
			entrypoint = in.args
		}
	}
	if len(froms) != 2 || !strings.HasPrefix(froms[0], "golang:1.26 AS ") ||
		!(froms[1] == "gcr.io/distroless/static-debian12:nonroot" || froms[1] == "scratch") {
		t.Fatalf("stages %q: want golang:1.26 builder and a distroless static / scratch final stage", froms)
	}
	if user == "" || strings.HasPrefix(user, "0") || strings.HasPrefix(user, "root") {
		t.Fatalf("USER %q: must be non-root", user)
	}
	settings := settings(t)
	for k := range env {
		if !settings[k] {
			t.Errorf("ENV %s is not a precisiond setting", k)
		}
	}
	host, port, err := splitHostPort(env["PRECISIOND_ADDR"])
	if err != nil || host != "0.0.0.0" || port != expose || port != "8003" {
		t.Fatalf("PRECISIOND_ADDR %q and EXPOSE %q must agree on 0.0.0.0:8003", env["PRECISIOND_ADDR"], expose)
	}
	if volume != `["`+env["PRECISIOND_DATA_DIR"]+`"]` {
		t.Fatalf("VOLUME %s is not the data dir %s", volume, env["PRECISIOND_DATA_DIR"])
	}
	if !strings.HasSuffix(healthcheck, `CMD ["/precisiond", "health"]`) || entrypoint != `["/precisiond"]` {
		t.Fatalf("HEALTHCHECK %q / ENTRYPOINT %q must run /precisiond (exec form, no shell)", healthcheck, entrypoint)
	}
	// The binary the final stage copies is the one the build stage writes.
	build := buildLine(t)
	out := build[slices.Index(build, "-o")+1]
	copied := false
	for _, in := range ins {
		if in.cmd == "COPY" && strings.Contains(in.args, "--from=") && strings.Contains(in.args, out+" /precisiond") {
			copied = true
		}
	}
	if !copied {
		t.Fatalf("no COPY --from of %s to /precisiond", out)
	}
}

// addEnv adds the KEY=value words of an ENV instruction to env.
func addEnv(t *testing.T, env map[string]string, args string) {
	t.Helper()
	for _, w := range shellWords(args) {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			t.Fatalf("ENV %q: use KEY=value", args)
		}
		env[k] = v
	}
}

// imageEnv is the environment the final stage sets (its ENV instructions).
func imageEnv(t *testing.T) map[string]string {
	t.Helper()
	env := map[string]string{}
	final := false
	for _, in := range parseDockerfile(t) {
		switch {
		case in.cmd == "FROM":
			final = !strings.Contains(in.args, " AS ")
			clear(env)
		case in.cmd == "ENV" && final:
			addEnv(t, env, in.args)
		}
	}
	return env
}

func splitHostPort(s string) (string, string, error) {
	i := strings.LastIndex(s, ":")
	if i < 0 {
		return "", "", errors.New("no port")
	}
	return s[:i], s[i+1:], nil
}

// buildLine returns the Dockerfile's `go build` command words, environment
// assignments first (CGO_ENABLED=0 ...).
func buildLine(t *testing.T) []string {
	t.Helper()
	for _, in := range parseDockerfile(t) {
		if in.cmd == "RUN" && strings.Contains(in.args, "go build") {
			return shellWords(in.args)
		}
	}
	t.Fatal("no RUN ... go build in the Dockerfile")
	return nil
}

// TestDockerBuildIsStatic runs the Dockerfile's own build line (ARG VERSION
// substituted, output redirected) and checks the binary: statically linked (no
// PT_INTERP, no DT_NEEDED), stripped (-s), trimmed paths, version stamped.
func TestDockerBuildIsStatic(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: builds and runs the binary (a -trimpath build misses the usual build cache); runs without -short")
	}
	words := buildLine(t)
	var envs, argv []string
	for i, w := range words {
		if strings.Contains(w, "=") && !strings.HasPrefix(w, "-") && w == words[i] && len(argv) == 0 {
			envs = append(envs, w)
			continue
		}
		argv = append(argv, w)
	}
	if !slices.Contains(envs, "CGO_ENABLED=0") || len(argv) < 2 || argv[0] != "go" || argv[1] != "build" {
		t.Fatalf("build line %q: want CGO_ENABLED=0 go build ...", words)
	}
	for _, flag := range []string{"-trimpath", "-ldflags"} {
		if !slices.Contains(argv, flag) {
			t.Fatalf("build line lacks %s", flag)
		}
	}
	bin := filepath.Join(t.TempDir(), "precisiond")
	const version = "v0.0.0-deploytest"
	for i := range argv {
		argv[i] = strings.ReplaceAll(argv[i], "${VERSION}", version)
		if argv[i] == "-o" {
			argv[i+1] = bin
		}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), envs...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%q: %v\n%s", argv, err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Fatal("binary has a PT_INTERP program header: dynamically linked")
		}
	}
	if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
		t.Fatalf("binary needs shared libraries %v", libs)
	}
	if _, err := f.Symbols(); !errors.Is(err, elf.ErrNoSymbols) {
		t.Fatalf("binary has a symbol table (-s not applied): %v", err)
	}
	raw, _ := os.ReadFile(bin)
	if bytes.Contains(raw, []byte(repoRoot(t))) {
		t.Fatal("binary contains the build directory path (-trimpath not applied)")
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil || strings.TrimSpace(string(out)) != "precisiond "+version {
		t.Fatalf("version = %q %v, want precisiond %s", out, err, version)
	}

	// `docker run -i --rm precisiond mcp`, as the README gives it to stdio MCP
	// clients: the entrypoint with "mcp", the image's environment only (its
	// data directory a fresh one standing in for the volume, HOME as
	// distroless nonroot has it, without the directory), newline-delimited
	// JSON-RPC on stdin.
	mcp := exec.Command(bin, "mcp")
	mcp.Dir = "/"
	dataDir := t.TempDir()
	mcp.Env = []string{"HOME=/home/nonroot"}
	for k, v := range imageEnv(t) {
		if k == "PRECISIOND_DATA_DIR" {
			v = dataDir
		}
		mcp.Env = append(mcp.Env, k+"="+v)
	}
	mcp.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"deploy-test","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"gcd_lcm","arguments":{"a":391,"b":299}}}
`)
	var stderr bytes.Buffer
	mcp.Stderr = &stderr
	replies, err := mcp.Output()
	if err != nil {
		t.Fatalf("mcp over stdio: %v\n%s", err, stderr.String())
	}
	var answered bool
	for line := range strings.Lines(string(replies)) {
		if strings.Contains(line, `"id":2`) {
			answered = strings.Contains(line, `"lcm":5083`) && !strings.Contains(line, `"isError":true`)
		}
	}
	if !answered {
		t.Errorf("mcp over stdio with the image's environment did not answer gcd_lcm:\n%s\n%s", replies, stderr.String())
	}
}

func TestDockerignoreKeepsTheBuildInputs(t *testing.T) {
	var patterns []string
	for _, line := range strings.Split(string(readFile(t, ".dockerignore")), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			patterns = append(patterns, strings.TrimSuffix(line, "/"))
		}
	}
	for _, needed := range []string{"go.mod", "go.sum", "cmd", "api", "tools", "contracts", "evidence", "internal"} {
		for _, p := range patterns {
			if m, _ := filepath.Match(p, needed); m || p == needed {
				t.Errorf(".dockerignore excludes %s, which the build needs", needed)
			}
		}
	}
	for _, must := range []string{".git", "**/node_modules", "precisiond.env"} {
		if !slices.Contains(patterns, must) {
			t.Errorf(".dockerignore should exclude %s", must)
		}
	}
}

// ---- docker-compose.yml ----

type composeFile struct {
	Services map[string]composeService `yaml:"services"`
	Volumes  map[string]map[string]any `yaml:"volumes"`
	Secrets  map[string]struct {
		File string `yaml:"file"`
	} `yaml:"secrets"`
}

type composeService struct {
	Build struct {
		Context string            `yaml:"context"`
		Args    map[string]string `yaml:"args"`
	} `yaml:"build"`
	Image   string `yaml:"image"`
	EnvFile []struct {
		Path     string `yaml:"path"`
		Required *bool  `yaml:"required"`
	} `yaml:"env_file"`
	Environment map[string]string `yaml:"environment"`
	Ports       []string          `yaml:"ports"`
	Volumes     []string          `yaml:"volumes"`
	Secrets     []string          `yaml:"secrets"`
	ReadOnly    bool              `yaml:"read_only"`
	CapDrop     []string          `yaml:"cap_drop"`
	SecurityOpt []string          `yaml:"security_opt"`
	Healthcheck struct {
		Test        []string `yaml:"test"`
		Interval    string   `yaml:"interval"`
		Timeout     string   `yaml:"timeout"`
		StartPeriod string   `yaml:"start_period"`
		Retries     int      `yaml:"retries"`
	} `yaml:"healthcheck"`
	StopGracePeriod string   `yaml:"stop_grace_period"`
	Restart         string   `yaml:"restart"`
	Profiles        []string `yaml:"profiles"`
	Command         []string `yaml:"command"`
	DependsOn       map[string]struct {
		Condition string `yaml:"condition"`
	} `yaml:"depends_on"`
}

func TestCompose(t *testing.T) {
	var c composeFile
	if err := yaml.UnmarshalWithOptions(readFile(t, "docker-compose.yml"), &c, yaml.Strict()); err != nil {
		t.Fatal(err)
	}
	s, ok := c.Services["precisiond"]
	if !ok {
		t.Fatal("no precisiond service")
	}
	if s.Build.Context != "." {
		t.Errorf("build context %q", s.Build.Context)
	}
	if !slices.ContainsFunc(s.Ports, func(p string) bool { return strings.HasSuffix(p, ":8003:8003") || p == "8003:8003" }) {
		t.Errorf("ports %v do not publish 8003", s.Ports)
	}
	if _, port, _ := splitHostPort(s.Environment["PRECISIOND_ADDR"]); port != "8003" {
		t.Errorf("PRECISIOND_ADDR %q", s.Environment["PRECISIOND_ADDR"])
	}
	dataDir := s.Environment["PRECISIOND_DATA_DIR"]
	named := false
	for _, v := range s.Volumes {
		src, dst, _ := strings.Cut(v, ":")
		if _, declared := c.Volumes[src]; declared && dst == dataDir {
			named = true
		}
	}
	if !named || dataDir == "" {
		t.Errorf("volumes %v: want a named volume on the data dir %q", s.Volumes, dataDir)
	}
	// The env file is optional: `docker compose up` works before anyone
	// copied precisiond.env.example.
	if len(s.EnvFile) != 1 || s.EnvFile[0].Path != "precisiond.env" || s.EnvFile[0].Required == nil || *s.EnvFile[0].Required {
		t.Errorf("env_file %+v, want precisiond.env with required: false", s.EnvFile)
	}
	if !slices.Equal(s.Healthcheck.Test, []string{"CMD", "/precisiond", "health"}) {
		t.Errorf("healthcheck %v", s.Healthcheck.Test)
	}
	if !s.ReadOnly || !slices.Equal(s.CapDrop, []string{"ALL"}) {
		t.Error("compose service should run read-only with all capabilities dropped")
	}
	// Listening on 0.0.0.0 needs API tokens: the file is a declared secret.
	if tf := s.Environment["PRECISIOND_API_TOKENS"]; len(s.Secrets) != 1 || tf != "/run/secrets/"+s.Secrets[0] || c.Secrets[s.Secrets[0]].File == "" {
		t.Errorf("PRECISIOND_API_TOKENS %q must be the compose secret %v (declared %v)", tf, s.Secrets, c.Secrets)
	}
	st := settings(t)
	for k := range s.Environment {
		if !st[k] {
			t.Errorf("environment %s is not a precisiond setting", k)
		}
	}
	// The example env file sets only real settings.
	for _, line := range strings.Split(string(readFile(t, "precisiond.env.example")), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, _, ok := strings.Cut(line, "=")
		if !ok || !st[k] {
			t.Errorf("precisiond.env.example: %q is not a precisiond setting", line)
		}
	}
	checkComposeS3(t, c)
}

// checkComposeS3: the optional S3 profile starts a gateway of the version the
// tests run, with the credentials precisiond gets, the bucket and endpoint that
// precisiond.env.example's (commented) S3 lines name; the default services
// are not in it.
func checkComposeS3(t *testing.T, c composeFile) {
	t.Helper()
	if len(c.Services["precisiond"].Profiles) != 0 {
		t.Error("precisiond must start without a profile")
	}
	gw, bucket := c.Services["s3"], c.Services["s3-bucket"]
	if !slices.Equal(gw.Profiles, []string{"s3"}) || !slices.Equal(bucket.Profiles, []string{"s3"}) {
		t.Fatalf("the S3 services are not (only) in profile s3: %v %v", gw.Profiles, bucket.Profiles)
	}
	if _, version, _ := strings.Cut(s3test.Install, "@"); !strings.HasSuffix(gw.Image, ":"+version) {
		t.Errorf("gateway image %s is not the version the tests run (%s)", gw.Image, s3test.Install)
	}
	if gw.Environment["ROOT_ACCESS_KEY_ID"] != "${AWS_ACCESS_KEY_ID:-}" || gw.Environment["ROOT_SECRET_ACCESS_KEY"] != "${AWS_SECRET_ACCESS_KEY:-}" {
		t.Errorf("the gateway's credentials %v are not precisiond's", gw.Environment)
	}
	if gw.DependsOn["s3-bucket"].Condition != "service_completed_successfully" {
		t.Error("the gateway must start after the bucket exists")
	}
	example := map[string]string{}
	for _, line := range strings.Split(string(readFile(t, "precisiond.env.example")), "\n") {
		if k, v, ok := strings.Cut(strings.TrimPrefix(line, "# "), "="); ok && strings.HasPrefix(k, "AWS_") || k == "PRECISIOND_STORE" {
			example[k] = v
		}
	}
	loc, err := blob.ParseLocation(example["PRECISIOND_STORE"])
	if err != nil || loc.Kind != "s3" {
		t.Fatalf("precisiond.env.example's S3 store %q: %v", example["PRECISIOND_STORE"], err)
	}
	root := gw.Command[len(gw.Command)-1]
	if !slices.Equal(bucket.Command, []string{"mkdir", "-p", path.Join(root, loc.Bucket)}) || len(gw.Volumes) != 1 || !slices.Equal(gw.Volumes, bucket.Volumes) ||
		!strings.HasSuffix(gw.Volumes[0], ":"+root) {
		t.Errorf("the bucket service %v does not create bucket %q under the gateway's root %s (%v)", bucket.Command, loc.Bucket, root, gw.Volumes)
	}
	u, err := url.Parse(example["AWS_ENDPOINT_URL"])
	if err != nil || u.Hostname() != "s3" || !slices.Contains(gw.Command, ":"+u.Port()) {
		t.Errorf("AWS_ENDPOINT_URL %q does not reach the gateway (%v)", example["AWS_ENDPOINT_URL"], gw.Command)
	}
	if example["AWS_ACCESS_KEY_ID"] == "" || !strings.Contains(string(readFile(t, "docker-compose.yml")), "--env-file precisiond.env --profile s3") {
		t.Error("the S3 profile's instructions are missing")
	}
}

// ---- Kubernetes ----

type objectMeta struct {
	Name        string            `yaml:"name"`
	Namespace   string            `yaml:"namespace"`
	Labels      map[string]string `yaml:"labels"`
	Annotations map[string]string `yaml:"annotations"`
}

type TypeMeta struct {
	APIVersion string     `yaml:"apiVersion"`
	Kind       string     `yaml:"kind"`
	Metadata   objectMeta `yaml:"metadata"`
}

type labelSelector struct {
	MatchLabels map[string]string `yaml:"matchLabels"`
}

type probe struct {
	HTTPGet struct {
		Path string `yaml:"path"`
		Port any    `yaml:"port"` // name or number
	} `yaml:"httpGet"`
	TCPSocket struct {
		Port any `yaml:"port"`
	} `yaml:"tcpSocket"`
	InitialDelaySeconds int `yaml:"initialDelaySeconds"`
	PeriodSeconds       int `yaml:"periodSeconds"`
	TimeoutSeconds      int `yaml:"timeoutSeconds"`
	FailureThreshold    int `yaml:"failureThreshold"`
}

type secretKeyRef struct {
	Name     string `yaml:"name"`
	Key      string `yaml:"key"`
	Optional bool   `yaml:"optional"`
}

// secretRefs maps a container's variables taken from a Secret to their
// references.
func (c container) secretRefs() map[string]secretKeyRef {
	out := map[string]secretKeyRef{}
	for _, e := range c.Env {
		if e.ValueFrom.SecretKeyRef.Name != "" {
			out[e.Name] = e.ValueFrom.SecretKeyRef
		}
	}
	return out
}

type container struct {
	Name            string   `yaml:"name"`
	Image           string   `yaml:"image"`
	ImagePullPolicy string   `yaml:"imagePullPolicy"`
	Command         []string `yaml:"command"`
	Args            []string `yaml:"args"`
	Ports           []struct {
		Name          string `yaml:"name"`
		ContainerPort int    `yaml:"containerPort"`
		Protocol      string `yaml:"protocol"`
	} `yaml:"ports"`
	EnvFrom []struct {
		ConfigMapRef struct {
			Name string `yaml:"name"`
		} `yaml:"configMapRef"`
	} `yaml:"envFrom"`
	Env []struct {
		Name      string `yaml:"name"`
		Value     string `yaml:"value"`
		ValueFrom struct {
			SecretKeyRef secretKeyRef `yaml:"secretKeyRef"`
		} `yaml:"valueFrom"`
	} `yaml:"env"`
	StartupProbe   *probe `yaml:"startupProbe"`
	ReadinessProbe *probe `yaml:"readinessProbe"`
	LivenessProbe  *probe `yaml:"livenessProbe"`
	Lifecycle      struct {
		PreStop struct {
			Sleep struct {
				Seconds int `yaml:"seconds"`
			} `yaml:"sleep"`
		} `yaml:"preStop"`
	} `yaml:"lifecycle"`
	Resources struct {
		Requests map[string]string `yaml:"requests"`
		Limits   map[string]string `yaml:"limits"`
	} `yaml:"resources"`
	SecurityContext struct {
		AllowPrivilegeEscalation *bool `yaml:"allowPrivilegeEscalation"`
		ReadOnlyRootFilesystem   bool  `yaml:"readOnlyRootFilesystem"`
		RunAsNonRoot             bool  `yaml:"runAsNonRoot"`
		Capabilities             struct {
			Drop []string `yaml:"drop"`
		} `yaml:"capabilities"`
	} `yaml:"securityContext"`
	VolumeMounts []struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
		ReadOnly  bool   `yaml:"readOnly"`
	} `yaml:"volumeMounts"`
}

type deployment struct {
	TypeMeta `yaml:",inline"`
	Spec     struct {
		Replicas             int           `yaml:"replicas"`
		RevisionHistoryLimit int           `yaml:"revisionHistoryLimit"`
		Selector             labelSelector `yaml:"selector"`
		Strategy             struct {
			Type          string `yaml:"type"`
			RollingUpdate struct {
				MaxUnavailable any `yaml:"maxUnavailable"`
				MaxSurge       any `yaml:"maxSurge"`
			} `yaml:"rollingUpdate"`
		} `yaml:"strategy"`
		Template struct {
			Metadata objectMeta `yaml:"metadata"`
			Spec     struct {
				TerminationGracePeriodSeconds int  `yaml:"terminationGracePeriodSeconds"`
				AutomountServiceAccountToken  bool `yaml:"automountServiceAccountToken"`
				SecurityContext               struct {
					RunAsNonRoot   bool `yaml:"runAsNonRoot"`
					RunAsUser      int  `yaml:"runAsUser"`
					RunAsGroup     int  `yaml:"runAsGroup"`
					FSGroup        int  `yaml:"fsGroup"`
					SeccompProfile struct {
						Type string `yaml:"type"`
					} `yaml:"seccompProfile"`
				} `yaml:"securityContext"`
				InitContainers []container `yaml:"initContainers"`
				Containers     []container `yaml:"containers"`
				Volumes        []struct {
					Name     string `yaml:"name"`
					EmptyDir *struct {
						SizeLimit string `yaml:"sizeLimit"`
					} `yaml:"emptyDir"`
					PersistentVolumeClaim *struct {
						ClaimName string `yaml:"claimName"`
					} `yaml:"persistentVolumeClaim"`
					Secret *struct {
						SecretName string `yaml:"secretName"`
						Items      []struct {
							Key  string `yaml:"key"`
							Path string `yaml:"path"`
						} `yaml:"items"`
					} `yaml:"secret"`
				} `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

type service struct {
	TypeMeta `yaml:",inline"`
	Spec     struct {
		Type     string            `yaml:"type"`
		Selector map[string]string `yaml:"selector"`
		Ports    []struct {
			Name       string `yaml:"name"`
			Port       int    `yaml:"port"`
			TargetPort any    `yaml:"targetPort"`
			Protocol   string `yaml:"protocol"`
		} `yaml:"ports"`
	} `yaml:"spec"`
}

type hpa struct {
	TypeMeta `yaml:",inline"`
	Spec     struct {
		ScaleTargetRef struct {
			APIVersion string `yaml:"apiVersion"`
			Kind       string `yaml:"kind"`
			Name       string `yaml:"name"`
		} `yaml:"scaleTargetRef"`
		MinReplicas int `yaml:"minReplicas"`
		MaxReplicas int `yaml:"maxReplicas"`
		Metrics     []struct {
			Type     string `yaml:"type"`
			Resource struct {
				Name   string `yaml:"name"`
				Target struct {
					Type               string `yaml:"type"`
					AverageUtilization int    `yaml:"averageUtilization"`
				} `yaml:"target"`
			} `yaml:"resource"`
		} `yaml:"metrics"`
		Behavior struct {
			ScaleDown struct {
				StabilizationWindowSeconds int `yaml:"stabilizationWindowSeconds"`
			} `yaml:"scaleDown"`
		} `yaml:"behavior"`
	} `yaml:"spec"`
}

type pdb struct {
	TypeMeta `yaml:",inline"`
	Spec     struct {
		MinAvailable   any           `yaml:"minAvailable"`
		MaxUnavailable any           `yaml:"maxUnavailable"`
		Selector       labelSelector `yaml:"selector"`
	} `yaml:"spec"`
}

type secret struct {
	TypeMeta   `yaml:",inline"`
	Type       string            `yaml:"type"`
	StringData map[string]string `yaml:"stringData"`
}

type persistentVolumeClaim struct {
	TypeMeta `yaml:",inline"`
	Spec     struct {
		AccessModes []string `yaml:"accessModes"`
		Resources   struct {
			Requests map[string]string `yaml:"requests"`
		} `yaml:"resources"`
	} `yaml:"spec"`
}

type configMap struct {
	TypeMeta `yaml:",inline"`
	Data     map[string]string `yaml:"data"`
}

type kustomization struct {
	APIVersion string   `yaml:"apiVersion"`
	Kind       string   `yaml:"kind"`
	Resources  []string `yaml:"resources"`
}

// manifests decodes every document of every file listed in the kustomization,
// strictly, into the struct for its apiVersion/kind.
type manifests struct {
	deployments []deployment
	services    []service
	hpas        []hpa
	pdbs        []pdb
	configMaps  []configMap
	secrets     []secret
	pvcs        []persistentVolumeClaim
}

var wantAPI = map[string]string{
	"Deployment": "apps/v1", "Service": "v1", "HorizontalPodAutoscaler": "autoscaling/v2",
	"PodDisruptionBudget": "policy/v1", "ConfigMap": "v1", "Secret": "v1", "PersistentVolumeClaim": "v1",
}

func loadManifests(t *testing.T) manifests {
	t.Helper()
	var k kustomization
	if err := yaml.UnmarshalWithOptions(readFile(t, "deploy/kustomization.yaml"), &k, yaml.Strict()); err != nil {
		t.Fatal(err)
	}
	if k.APIVersion != "kustomize.config.k8s.io/v1beta1" || k.Kind != "Kustomization" {
		t.Fatalf("kustomization %s/%s", k.APIVersion, k.Kind)
	}
	// Every YAML file in deploy/ is listed, and every listed file exists.
	files, _ := filepath.Glob(filepath.Join(repoRoot(t), "deploy", "*.yaml"))
	for _, f := range files {
		if base := filepath.Base(f); base != "kustomization.yaml" && !slices.Contains(k.Resources, base) {
			t.Errorf("deploy/%s is not listed in kustomization.yaml", base)
		}
	}
	var m manifests
	for _, file := range k.Resources {
		m.decode(t, filepath.Join("deploy", file))
	}
	if len(m.secrets) != 0 || len(m.pvcs) != 0 {
		t.Fatal("deploy/ itself ships no Secret (credentials are created by hand) and no volume claim")
	}
	if len(m.deployments) != 1 || len(m.services) != 1 || len(m.hpas) != 1 || len(m.pdbs) != 1 || len(m.configMaps) != 1 {
		t.Fatalf("want one each of Deployment, Service, HPA, PDB, ConfigMap")
	}
	return m
}

// decode adds every document of the file (relative to the repository), decoded strictly into the
// struct for its apiVersion/kind.
func (m *manifests) decode(t *testing.T, file string) {
	t.Helper()
	data := readFile(t, file)
	for i, doc := range splitDocs(data) {
		var tm TypeMeta
		if err := yaml.Unmarshal(doc, &tm); err != nil {
			t.Fatalf("%s#%d: %v", file, i, err)
		}
		if want, ok := wantAPI[tm.Kind]; !ok || want != tm.APIVersion {
			t.Fatalf("%s#%d: %s %s is not one of the kinds we ship (%v)", file, i, tm.APIVersion, tm.Kind, wantAPI)
		}
		if tm.Metadata.Name == "" {
			t.Fatalf("%s#%d: no metadata.name", file, i)
		}
		strict := func(v any) {
			if err := yaml.UnmarshalWithOptions(doc, v, yaml.Strict()); err != nil {
				t.Fatalf("%s#%d (%s): %v", file, i, tm.Kind, err)
			}
		}
		switch tm.Kind {
		case "Deployment":
			appendStrict(&m.deployments, strict)
		case "Service":
			appendStrict(&m.services, strict)
		case "HorizontalPodAutoscaler":
			appendStrict(&m.hpas, strict)
		case "PodDisruptionBudget":
			appendStrict(&m.pdbs, strict)
		case "ConfigMap":
			appendStrict(&m.configMaps, strict)
		case "Secret":
			appendStrict(&m.secrets, strict)
		case "PersistentVolumeClaim":
			appendStrict(&m.pvcs, strict)
		}
	}
}

// appendStrict decodes a document strictly (by strict) as a T and appends it
// to list.
func appendStrict[T any](list *[]T, strict func(any)) {
	var v T
	strict(&v)
	*list = append(*list, v)
}

func splitDocs(data []byte) [][]byte {
	var docs [][]byte
	for _, part := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(data), -1) {
		if strings.TrimSpace(stripComments(part)) != "" {
			docs = append(docs, []byte(part))
		}
	}
	return docs
}

func stripComments(s string) string {
	return regexp.MustCompile(`(?m)^\s*#.*$`).ReplaceAllString(s, "")
}

var quantity = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$`)

func subset(sel, labels map[string]string) bool {
	if len(sel) == 0 {
		return false
	}
	for k, v := range sel {
		if labels[k] != v {
			return false
		}
	}
	return true
}

func TestKubernetesManifests(t *testing.T) {
	m := loadManifests(t)
	d, svc, h, p, cm := m.deployments[0], m.services[0], m.hpas[0], m.pdbs[0], m.configMaps[0]
	pod := d.Spec.Template
	if !subset(d.Spec.Selector.MatchLabels, pod.Metadata.Labels) {
		t.Error("Deployment selector does not match its pod labels")
	}
	if !subset(svc.Spec.Selector, pod.Metadata.Labels) {
		t.Error("Service selector does not match the pod labels")
	}
	if !subset(p.Spec.Selector.MatchLabels, pod.Metadata.Labels) {
		t.Error("PDB selector does not match the pod labels")
	}
	if h.Spec.ScaleTargetRef.Kind != "Deployment" || h.Spec.ScaleTargetRef.Name != d.Metadata.Name || h.Spec.ScaleTargetRef.APIVersion != "apps/v1" {
		t.Errorf("HPA targets %+v", h.Spec.ScaleTargetRef)
	}
	if h.Spec.MinReplicas < 2 || h.Spec.MaxReplicas < h.Spec.MinReplicas || len(h.Spec.Metrics) == 0 {
		t.Errorf("HPA replicas %d..%d", h.Spec.MinReplicas, h.Spec.MaxReplicas)
	}
	if d.Spec.Replicas < 2 || (p.Spec.MinAvailable == nil) == (p.Spec.MaxUnavailable == nil) {
		t.Error("want several replicas and a PDB with exactly one of minAvailable/maxUnavailable")
	}
	if n, ok := p.Spec.MinAvailable.(uint64); ok && int(n) >= h.Spec.MinReplicas {
		t.Error("PDB minAvailable would block every voluntary eviction")
	}
	// The drain (30 s in Main.Run) plus preStop fits the grace period.
	if len(pod.Spec.Containers) != 1 {
		t.Fatalf("want one container")
	}
	c := pod.Spec.Containers[0]
	if g := pod.Spec.TerminationGracePeriodSeconds; g < 30+c.Lifecycle.PreStop.Sleep.Seconds {
		t.Errorf("terminationGracePeriodSeconds %d < 30 s drain + %d s preStop", g, c.Lifecycle.PreStop.Sleep.Seconds)
	}
	// Security.
	sc := pod.Spec.SecurityContext
	if !sc.RunAsNonRoot || sc.RunAsUser == 0 || !c.SecurityContext.RunAsNonRoot || !c.SecurityContext.ReadOnlyRootFilesystem ||
		c.SecurityContext.AllowPrivilegeEscalation == nil || *c.SecurityContext.AllowPrivilegeEscalation ||
		!slices.Equal(c.SecurityContext.Capabilities.Drop, []string{"ALL"}) {
		t.Error("container must run as non-root, read-only, without privilege escalation, with ALL capabilities dropped")
	}
	for _, res := range []map[string]string{c.Resources.Requests, c.Resources.Limits} {
		for _, k := range []string{"cpu", "memory"} {
			if !quantity.MatchString(res[k]) {
				t.Errorf("resource %s = %q is not a quantity", k, res[k])
			}
		}
	}
	// Ports: the Service's targetPort is the container's port (by name or number).
	ports := map[string]int{}
	for _, cp := range c.Ports {
		ports[cp.Name] = cp.ContainerPort
	}
	resolve := func(v any) int {
		switch x := v.(type) {
		case string:
			if n, ok := ports[x]; ok {
				return n
			}
			n, _ := strconv.Atoi(x)
			return n
		case uint64:
			return int(x)
		case int:
			return x
		}
		return 0
	}
	if len(svc.Spec.Ports) != 1 || resolve(svc.Spec.Ports[0].TargetPort) != 8003 || svc.Spec.Ports[0].Port != 8003 {
		t.Errorf("Service ports %+v do not reach containerPort 8003", svc.Spec.Ports)
	}
	// Configuration: every variable is a real setting and the listen port agrees.
	st := settings(t)
	env := map[string]string{}
	if len(c.EnvFrom) != 1 || c.EnvFrom[0].ConfigMapRef.Name != cm.Metadata.Name {
		t.Error("the container does not load the ConfigMap")
	}
	for k, v := range cm.Data {
		env[k] = v
	}
	tokenFromSecret, keyFromSecret := false, false
	for _, e := range c.Env {
		env[e.Name] = e.Value
		fromSecret := e.ValueFrom.SecretKeyRef.Name != "" && e.ValueFrom.SecretKeyRef.Key != ""
		tokenFromSecret = tokenFromSecret || (e.Name == "PRECISIOND_ADMIN_TOKEN" && fromSecret)
		keyFromSecret = keyFromSecret || (e.Name == "PRECISIOND_DOWNLOAD_SIGNING_KEY" && fromSecret && !e.ValueFrom.SecretKeyRef.Optional)
	}
	if !keyFromSecret {
		t.Error("PRECISIOND_DOWNLOAD_SIGNING_KEY must come from a Secret shared by every replica")
	}
	// Listening on 0.0.0.0 needs API tokens: the file lies in a mounted Secret.
	tokensFile := env["PRECISIOND_API_TOKENS"]
	inSecret := false
	for _, vm := range c.VolumeMounts {
		rel, ok := strings.CutPrefix(tokensFile, vm.MountPath+"/")
		for _, v := range pod.Spec.Volumes {
			if ok && vm.ReadOnly && v.Name == vm.Name && v.Secret != nil {
				for _, it := range v.Secret.Items {
					inSecret = inSecret || it.Path == rel
				}
			}
		}
	}
	if !inSecret {
		t.Errorf("PRECISIOND_API_TOKENS %q is not a file of a read-only Secret volume", tokensFile)
	}
	for k := range env {
		if !st[k] {
			t.Errorf("%s is not a precisiond setting", k)
		}
	}
	if !tokenFromSecret {
		t.Error("PRECISIOND_ADMIN_TOKEN must come from a Secret")
	}
	if host, port, _ := splitHostPort(env["PRECISIOND_ADDR"]); host != "0.0.0.0" || port != strconv.Itoa(ports["http"]) {
		t.Errorf("PRECISIOND_ADDR %q does not listen on the container port %d", env["PRECISIOND_ADDR"], ports["http"])
	}
	mounted := false
	for _, vm := range c.VolumeMounts {
		if vm.MountPath == env["PRECISIOND_DATA_DIR"] {
			for _, v := range pod.Spec.Volumes {
				mounted = mounted || (v.Name == vm.Name && (v.EmptyDir != nil || v.PersistentVolumeClaim != nil))
			}
		}
	}
	if !mounted {
		t.Error("the data dir is not a mounted emptyDir/PVC (the root file system is read-only)")
	}
	// Several replicas share one S3 store, with credentials from a Secret: a
	// per-pod store would answer two of three downloads with 404.
	if d.Spec.Replicas > 1 || h.Spec.MaxReplicas > 1 {
		loc, err := blob.ParseLocation(env["PRECISIOND_STORE"])
		if err != nil || loc.Kind != "s3" {
			t.Errorf("%d..%d replicas on PRECISIOND_STORE %q: a fleet needs an s3:// store (%v)", d.Spec.Replicas, h.Spec.MaxReplicas, env["PRECISIOND_STORE"], err)
		}
		refs := c.secretRefs()
		for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"} {
			if r := refs[k]; r.Name == "" || r.Key == "" || r.Optional {
				t.Errorf("%s must come from a Secret, not optional: %+v", k, r)
			}
		}
	}
	if c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet.Path != "/ready" || c.LivenessProbe.HTTPGet.Path != "/health" {
		t.Error("readiness must probe /ready (toggle state read, store required), liveness /health (never the store)")
	}
	// Probes: liveness and readiness on a real route of the service that
	// answers 200, on the container's port; the scrape annotation too.
	srv := httptest.NewServer(api.New(tools.NewRegistry(tools.Builtin(tools.Deps{}), tools.Options{}), api.Options{Metrics: api.NewMetrics(api.MetricsOptions{})}))
	defer srv.Close()
	probes := map[string]*probe{"liveness": c.LivenessProbe, "readiness": c.ReadinessProbe, "startup": c.StartupProbe}
	for name, pr := range probes {
		if pr == nil {
			if name != "startup" {
				t.Errorf("no %s probe", name)
			}
			continue
		}
		if resolve(pr.HTTPGet.Port) != 8003 {
			t.Errorf("%s probe port %v is not the container port", name, pr.HTTPGet.Port)
		}
		if status := get(t, srv.URL+pr.HTTPGet.Path); status != 200 {
			t.Errorf("%s probe path %s answers %d", name, pr.HTTPGet.Path, status)
		}
	}
	ann := pod.Metadata.Annotations
	if ann["prometheus.io/port"] != "8003" || get(t, srv.URL+ann["prometheus.io/path"]) != 200 {
		t.Errorf("scrape annotations %v do not reach /metrics", ann)
	}
}

// TestKubernetesExamples: the Secret and the in-cluster S3 service of
// deploy/examples fit the manifests: the Secret's name and keys are the ones
// the precisiond pods (and the gateway) read, the gateway's Service answers at
// AWS_ENDPOINT_URL, and the gateway has the bucket PRECISIOND_STORE names.
func TestKubernetesExamples(t *testing.T) {
	main := loadManifests(t)
	pod := main.deployments[0].Spec.Template.Spec.Containers[0]
	cm := main.configMaps[0].Data
	var ex manifests
	ex.decode(t, "deploy/examples/s3-secret.yaml")
	ex.decode(t, "deploy/examples/versitygw.yaml")
	if len(ex.secrets) != 1 || len(ex.deployments) != 1 || len(ex.services) != 1 || len(ex.pvcs) != 1 {
		t.Fatal("want the Secret, and a Deployment, Service and PVC for the gateway")
	}
	sec, gw, svc, pvc := ex.secrets[0], ex.deployments[0], ex.services[0], ex.pvcs[0]
	refs := pod.secretRefs()
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"} {
		if r := refs[k]; r.Name != sec.Metadata.Name || sec.StringData[r.Key] == "" {
			t.Errorf("%s reads %+v; the example Secret %s has %v", k, r, sec.Metadata.Name, slices.Collect(maps.Keys(sec.StringData)))
		}
	}
	if len(gw.Spec.Template.Spec.Containers) != 1 || len(gw.Spec.Template.Spec.InitContainers) != 1 {
		t.Fatal("want one gateway container and one init container")
	}
	g, initC := gw.Spec.Template.Spec.Containers[0], gw.Spec.Template.Spec.InitContainers[0]
	gwRefs := g.secretRefs()
	if gwRefs["ROOT_ACCESS_KEY_ID"] != refs["AWS_ACCESS_KEY_ID"] || gwRefs["ROOT_SECRET_ACCESS_KEY"] != refs["AWS_SECRET_ACCESS_KEY"] {
		t.Errorf("the gateway's root credentials %v are not the pods' %v", gwRefs, refs)
	}
	if _, version, _ := strings.Cut(s3test.Install, "@"); !strings.HasSuffix(g.Image, ":"+version) {
		t.Errorf("gateway image %s is not the version the tests run (%s)", g.Image, s3test.Install)
	}
	// The endpoint is the Service's name and port, which reach the gateway.
	u, err := url.Parse(cm["AWS_ENDPOINT_URL"])
	if err != nil || u.Hostname() != svc.Metadata.Name || len(svc.Spec.Ports) != 1 || strconv.Itoa(svc.Spec.Ports[0].Port) != u.Port() {
		t.Errorf("AWS_ENDPOINT_URL %q is not the Service %s %+v", cm["AWS_ENDPOINT_URL"], svc.Metadata.Name, svc.Spec.Ports)
	}
	if !subset(svc.Spec.Selector, gw.Spec.Template.Metadata.Labels) || !subset(gw.Spec.Selector.MatchLabels, gw.Spec.Template.Metadata.Labels) {
		t.Error("the gateway's selectors do not match its pod")
	}
	if len(g.Ports) != 1 || svc.Spec.Ports[0].TargetPort != g.Ports[0].Name || !slices.Contains(g.Args, ":"+strconv.Itoa(g.Ports[0].ContainerPort)) {
		t.Errorf("the Service's targetPort %v, the container's ports %+v and its --port %v disagree", svc.Spec.Ports[0].TargetPort, g.Ports, g.Args)
	}
	// The bucket: a directory under the posix root, created by the init
	// container on the claim's volume.
	loc, err := blob.ParseLocation(cm["PRECISIOND_STORE"])
	if err != nil {
		t.Fatal(err)
	}
	root := g.Args[len(g.Args)-1]
	if len(g.Args) < 2 || g.Args[len(g.Args)-2] != "posix" || !slices.Contains(initC.Command, path.Join(root, loc.Bucket)) {
		t.Errorf("gateway args %v / init command %v do not create bucket %q", g.Args, initC.Command, loc.Bucket)
	}
	vols := gw.Spec.Template.Spec.Volumes
	for _, ctr := range []container{g, initC} {
		if len(ctr.VolumeMounts) != 1 || ctr.VolumeMounts[0].MountPath != root || len(vols) != 1 || vols[0].Name != ctr.VolumeMounts[0].Name ||
			vols[0].PersistentVolumeClaim == nil || vols[0].PersistentVolumeClaim.ClaimName != pvc.Metadata.Name {
			t.Errorf("%s does not mount the claim %s on %s", ctr.Name, pvc.Metadata.Name, root)
		}
		if !ctr.SecurityContext.ReadOnlyRootFilesystem || !slices.Equal(ctr.SecurityContext.Capabilities.Drop, []string{"ALL"}) {
			t.Errorf("%s should run read-only with all capabilities dropped", ctr.Name)
		}
	}
}

func get(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestStrictDecodingCatchesTypos makes sure the manifest checks can fail: a
// misspelt field is refused.
func TestStrictDecodingCatchesTypos(t *testing.T) {
	bad := strings.Replace(string(readFile(t, "deploy/deployment.yaml")), "readinessProbe:", "readynessProbe:", 1)
	var d deployment
	if err := yaml.UnmarshalWithOptions([]byte(bad), &d, yaml.Strict()); err == nil {
		t.Fatal("a misspelt field decoded without error")
	}
}
