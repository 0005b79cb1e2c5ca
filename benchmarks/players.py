"""The trivial players the harness benchmarks time: a C echo child (the floor of one
round trip on a pipe), a stamping C bot and the same bot in Python (wall time from a
reply flushed to the next request read, stamped by the bot itself), and the same
Python bot speaking UCI, for the comparison with fastchess."""

ECHO_C = r"""
#include <stdio.h>
int main(void) {
    static char line[1 << 22];
    while (fgets(line, sizeof line, stdin)) { fputs(line, stdout); fflush(stdout); }
    return 0;
}
"""

# A first-legal-action bot that opts into reuse and stamps, in CLOCK_MONOTONIC ns, when
# each act line was read ("a <id> <ns>") and each reply flushed ("r <ns>"); the stamps
# go to the file named by argv[1] when its input ends.
STAMP_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static long long now(void) {
    struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}
int main(int argc, char **argv) {
    char *line = NULL; size_t cap = 0;
    size_t size = 1 << 24, used = 0; char *log = malloc(size);
    while (getline(&line, &cap, stdin) != -1) {
        long long t = now(); long id;
        if (sscanf(line, "{\"type\":\"act\",\"id\":%ld", &id) == 1) {
            if (used + 64 < size) used += sprintf(log + used, "a %ld %lld\n", id, t);
            printf("{\"type\":\"action\",\"id\":%ld,\"index\":0}\n", id); fflush(stdout);
            if (used + 64 < size) used += sprintf(log + used, "r %lld\n", now());
        } else if (strncmp(line, "{\"type\":\"start\"", 15) == 0) {
            printf("{\"type\":\"ready\",\"name\":\"stamp\",\"reuse\":true}\n"); fflush(stdout);
        }
    }
    FILE *f = fopen(argc > 1 ? argv[1] : "/dev/null", "w");
    if (f) { fwrite(log, 1, used, f); fclose(f); }
    return 0;
}
"""

# The same trivial player in Python (what the fastchess comparison uses).
STAMP_PY = """
import sys, time
out = []
for line in sys.stdin:
    t = time.monotonic_ns()
    if line.startswith('{"type":"act","id":'):
        i = int(line[19:line.index(",", 19)])
        out.append(f"a {i} {t}")
        sys.stdout.write('{"type":"action","id":%d,"index":0}\\n' % i); sys.stdout.flush()
        out.append(f"r {time.monotonic_ns()}")
    elif line.startswith('{"type":"start"'):
        sys.stdout.write('{"type":"ready","name":"stamp","reuse":true}\\n'); sys.stdout.flush()
open(sys.argv[1], "w").write("\\n".join(out) + "\\n")
"""

# The same trivial Python player for a UCI harness (fastchess): it stamps each "go" read
# ("a 1" for the first move of a game, "a 2" after) and each "bestmove" flushed, and
# shuffles a knight (g1f3, f3g1 / g8f6, f6g8), so every move is legal and each game is
# drawn by repetition after 8 plies.  One stamp file per process: argv[1].<pid>.
STAMP_UCI_PY = """
import os, sys, time
out = []
shuffle = (("g1f3", "f3g1"), ("g8f6", "f6g8"))
n = 0
for line in sys.stdin:
    t = time.monotonic_ns()
    if line.startswith("go"):
        out.append(f"a {1 if n == 0 else 2} {t}")
        sys.stdout.write(f"bestmove {shuffle[n % 2][(n // 2) % 2]}\\n"); sys.stdout.flush()
        out.append(f"r {time.monotonic_ns()}")
    elif line.startswith("position"):
        words = line.split()
        n = len(words) - words.index("moves") - 1 if "moves" in words else 0
    elif line.strip() == "uci":
        sys.stdout.write("id name stamp\\nuciok\\n"); sys.stdout.flush()
    elif line.startswith("isready"):
        sys.stdout.write("readyok\\n"); sys.stdout.flush()
    elif line.startswith("quit"):
        break
with open(f"{sys.argv[1]}.{os.getpid()}", "a") as f:
    f.write("\\n".join(out) + "\\n")
"""
