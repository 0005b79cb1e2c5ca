/* A random bot in C (libc only): plays any game. Build into build/ (git ignores it):
 *   mkdir -p build && cc -O2 -o build/random_bot_c bots/examples/random_bot.c && referee check-bot manila build/random_bot_c
 *
 * Reads one JSON object per line; of each it needs only the top-level "type" and
 * "id" and the length of "legal", which the scanner below finds without a JSON
 * library. Answers `start` with `ready`, each `act` with a random index into
 * `legal`, and exits when its input ends. Its `ready` offers reuse, so after `end`
 * the referee may send the next match's `start` to the same process (nothing here
 * carries over between matches). Every reply is flushed (fflush) at once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct { char type[16]; long id; int legal; } Msg;

/* Skip a JSON string starting at the opening quote; return the char after it. */
static const char *skip_string(const char *p) {
    for (p++; *p && *p != '"'; p++)
        if (*p == '\\' && p[1]) p++;
    return *p ? p + 1 : p;
}

/* Scan the top-level keys of one JSON object line (no full parse). */
static Msg scan(const char *p) {
    Msg m = {"", 0, 0};
    int depth = 0, counting = 0, items = 0;
    char key[32] = "";
    while (*p) {
        if (*p == '"') {
            const char *end = skip_string(p);
            if (depth == 1 && key[0] == '\0') { /* a key: remember it until its value */
                size_t n = (size_t)(end - p - 2) < sizeof key - 1 ? (size_t)(end - p - 2) : sizeof key - 1;
                memcpy(key, p + 1, n); key[n] = '\0';
            } else if (depth == 1 && strcmp(key, "type") == 0) {
                size_t n = (size_t)(end - p - 2) < sizeof m.type - 1 ? (size_t)(end - p - 2) : sizeof m.type - 1;
                memcpy(m.type, p + 1, n); m.type[n] = '\0';
            }
            if (counting && depth == 2 && items == 0) items = 1;
            p = end;
            continue;
        }
        if (*p == '{' || *p == '[') {
            if (counting && depth == 2 && items == 0) items = 1;
            depth++;
            if (depth == 2 && *p == '[' && strcmp(key, "legal") == 0) counting = 1;
        } else if (*p == '}' || *p == ']') {
            depth--;
            if (depth == 1 && counting) { m.legal = items; counting = 0; }
        } else if (*p == ',') {
            if (depth == 1) key[0] = '\0';          /* next key follows */
            else if (counting && depth == 2) items++;
        } else if (*p == ':' && depth == 1 && strcmp(key, "id") == 0) {
            m.id = strtol(p + 1, NULL, 10);
        } else if (counting && depth == 2 && items == 0 && *p != ' ') {
            items = 1;                               /* first scalar item */
        }
        p++;
    }
    return m;
}

int main(int argc, char **argv) {
    char *line = NULL;
    size_t cap = 0;
    srand(argc > 1 ? (unsigned)atoi(argv[1]) : (unsigned)time(NULL));
    while (getline(&line, &cap, stdin) != -1) {   /* lines of any length */
        Msg m = scan(line);
        if (strcmp(m.type, "start") == 0) {
            printf("{\"type\":\"ready\",\"name\":\"random-c\",\"version\":\"1\",\"reuse\":true}\n");
        } else if (strcmp(m.type, "act") == 0 && m.legal > 0) {
            printf("{\"type\":\"action\",\"id\":%ld,\"index\":%d}\n", m.id, rand() % m.legal);
        } else {
            continue;                 /* `end`, and unknown types: nothing to answer */
        }
        fflush(stdout);                              /* the referee waits for this line */
    }
    free(line);
    return 0;
}
