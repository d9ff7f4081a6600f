# t/data/solve/lib-fixing.sh - an instance large enough for bf-solve to fix
# columns (t3140, t3130): sourced; D is t/data/solve.
#
# instance J N: jobs/, holes.yaml, state.yaml and policy.yaml here.  Job i
# is one of the seven ImageNet models, owned by uid 1000 + i % 5, with
# rescale costs and a weight of its own; 70 % of the nodes are held.  The
# policy caps the five users near their share, wants 60 nodes for the
# first six jobs, and allows J / 25 rescales.
instance() {
	mkdir -p jobs &&
	awk -v J="$1" -v N="$2" -v dir="$D" '
	function slurp(m,    f, line, s) {
		f = dir "/" m ".yaml"; s = ""
		while ((getline line <f) > 0)
			if (line ~ /^  [0-9]+: /) s = s line "\n"
		close(f)
		return s
	}
	BEGIN {
		split("alexnet densenet mnasnet1 mobilenet resnet18 shufflenet vgg16", m, " ")
		for (k = 1; k <= 7; k++) pts[k] = slurp(m[k])
		srand(3140)
		for (i = 0; i < J; i++) {
			f = sprintf("jobs/j%03d.yaml", i)
			printf "name: j%03d\ncommand: x\nmin_nodes: %d\nmax_nodes: 64\n" \
			    "rescale_up: %d\nrescale_down: %d\nweight: %d\n" \
			    "owner: {uid: %d}\nscaling:\n%s", i, 1 + int(rand() * 2),
			    10 + int(rand() * 20), 5 + int(rand() * 15),
			    1 + int(rand() * 3), 1000 + i % 5, pts[1 + i % 7] >f
			close(f)
		}
		printf "time: 1000\nidle:\n  - nodes: n[0001-%04d]\n", N >"holes.yaml"
		printf "time: 990\njobs:\n" >"state.yaml"
		for (k = 1; k <= int(0.7 * N); k++) {
			i = int(rand() * J)
			if (cnt[i] >= 64) continue
			cnt[i]++
			hosts[i] = hosts[i] (cnt[i] > 1 ? "," : "") sprintf("n%04d", k)
		}
		for (i = 0; i < J; i++)
			if (cnt[i] > 0)
				printf "  j%03d: {nodes: %d, hosts: \"%s\"}\n", i, cnt[i], hosts[i] >"state.yaml"
		printf "users:\n" >"policy.yaml"
		for (u = 0; u < 5; u++)
			printf "  %d: {max_nodes: %d}\n", 1000 + u, int(N / 5 * (0.85 + 0.05 * u)) >"policy.yaml"
		printf "groups:\n  first: {jobs: [j000, j001, j002, j003, j004, j005], min_nodes: 60}\n" >"policy.yaml"
		printf "max_rescales: %d\n", int(J / 25) >"policy.yaml"
	}'
}
