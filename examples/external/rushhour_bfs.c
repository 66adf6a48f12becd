/* A plain breadth-first Rush Hour solver in C: an example of an outside solver for Gridlock
 * (`gridlock check`, `--external` and `--external-serve`). The same contract as
 * rushhour_bfs.py: one board of 36 characters on standard input (Fogleman's line format; other
 * words on the line are ignored), one JSON object on standard output,
 * {"status":"solved","moves":[...]} with the fewest moves or {"status":"unsolvable"}, either with
 * "stats":{"seconds":...}, the time spent solving alone.
 *
 * With --serve the process stays up to spare a start per puzzle: one puzzle a line in, one
 * answer a line out, flushed at once because the other end waits for it before sending the next,
 * until the end of input. A line with no board gets {"status":"error","message":...} and serving
 * goes on; without --serve it is an error exit, as before. The tables are freed after each
 * puzzle, so one hard puzzle does not hold its memory for the rest of the run.
 *
 *     cc -O2 -o rushhour_bfs examples/external/rushhour_bfs.c
 *     echo 'ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo' | ./rushhour_bfs
 *     cut -d' ' -f2 data/rushhour/rush_every32.txt | ./rushhour_bfs --serve
 */
#define _POSIX_C_SOURCE 200809L  /* getline, clock_gettime */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { SIZE = 6, MAX_BLOCKS = 26 };

typedef struct { char name; int horizontal, length, line; } Block;

static Block blocks[MAX_BLOCKS];
static int block_count, walls[SIZE][SIZE];

/* Every state seen: its positions, its parent's index and the move that reached it. */
typedef struct { uint8_t position[MAX_BLOCKS]; int32_t parent; char name; int8_t distance; } State;
static State *states;
static size_t state_count, state_capacity;
static int32_t *table;  /* open addressing: state index + 1, 0 empty */
static size_t table_size;

static uint64_t hash(const uint8_t *position) {
    uint64_t value = 1469598103934665603ULL;
    for (int i = 0; i < block_count; i++) value = (value ^ position[i]) * 1099511628211ULL;
    return value;
}

static void grow_table(void);

/* Adds a state unless known; returns 1 when added. */
static int add(const uint8_t *position, int32_t parent, char name, int distance) {
    if ((state_count + 1) * 2 > table_size) grow_table();
    size_t slot = hash(position) & (table_size - 1);
    while (table[slot]) {
        if (memcmp(states[table[slot] - 1].position, position, block_count) == 0) return 0;
        slot = (slot + 1) & (table_size - 1);
    }
    if (state_count == state_capacity) {
        state_capacity = state_capacity ? state_capacity * 2 : 1024;
        states = realloc(states, state_capacity * sizeof(State));
        if (!states) { fputs("rushhour_bfs: out of memory\n", stderr); exit(1); }
    }
    State *state = &states[state_count];
    memcpy(state->position, position, block_count);
    state->parent = parent;
    state->name = name;
    state->distance = (int8_t)distance;
    table[slot] = (int32_t)++state_count;
    return 1;
}

static void grow_table(void) {
    size_t old_size = table_size;
    int32_t *old = table;
    table_size = old_size ? old_size * 2 : 4096;
    table = calloc(table_size, sizeof(int32_t));
    if (!table) { fputs("rushhour_bfs: out of memory\n", stderr); exit(1); }
    for (size_t i = 0; i < old_size; i++) {
        if (!old[i]) continue;
        size_t slot = hash(states[old[i] - 1].position) & (table_size - 1);
        while (table[slot]) slot = (slot + 1) & (table_size - 1);
        table[slot] = old[i];
    }
    free(old);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Drops every state, so the next puzzle starts from nothing and memory does not pile up. */
static void forget(void) {
    free(states);
    free(table);
    states = NULL;
    table = NULL;
    state_count = state_capacity = table_size = 0;
}

/* Prints the answer for the goal state at index, or "unsolvable" when index is negative. */
static void print_answer(int32_t index, double seconds) {
    if (index < 0) {
        printf("{\"status\":\"unsolvable\",\"stats\":{\"seconds\":%.9f}}\n", seconds);
        return;
    }
    int count = 0;
    for (int32_t at = index; states[at].parent >= 0; at = states[at].parent) count++;
    int32_t *path = malloc(sizeof(int32_t) * (count + 1));
    if (!path) { fputs("rushhour_bfs: out of memory\n", stderr); exit(1); }
    int n = count;
    for (int32_t at = index; states[at].parent >= 0; at = states[at].parent) path[--n] = at;
    printf("{\"status\":\"solved\",\"moves\":[");
    for (int i = 0; i < count; i++) {
        State *state = &states[path[i]];
        int b = 0;
        while (blocks[b].name != state->name) b++;
        const char *word = blocks[b].horizontal ? (state->distance < 0 ? "left" : "right") : (state->distance < 0 ? "up" : "down");
        printf("%s\"%c %s %d\"", i ? "," : "", state->name, word, abs(state->distance));
    }
    printf("],\"stats\":{\"seconds\":%.9f}}\n", seconds);
    free(path);
}

/* Reads the board out of a line into the block tables; NULL when it is one, else what is wrong. */
static const char *read_board(char *line, uint8_t *start) {
    char board[SIZE * SIZE + 1] = {0};
    for (char *word = strtok(line, " \t\r\n"); word; word = strtok(NULL, " \t\r\n"))
        if (strlen(word) == SIZE * SIZE) memcpy(board, word, SIZE * SIZE);
    if (!board[0]) return "expected a board of 36 characters";
    block_count = 0;
    for (char name = 'A'; name <= 'Z'; name++) {
        int first = -1, last = -1, count = 0;
        for (int i = 0; i < SIZE * SIZE; i++)
            if (board[i] == name) { if (first < 0) first = i; last = i; count++; }
        if (count == 0) continue;
        Block *block = &blocks[block_count];
        block->name = name;
        block->length = count;
        block->horizontal = first / SIZE == last / SIZE;
        block->line = block->horizontal ? first / SIZE : first % SIZE;
        /* A block in pieces or bent is no board, and its cells would run off the grid. */
        int step = block->horizontal ? 1 : SIZE;
        for (int k = 0; k < count; k++)
            if (first + k * step >= SIZE * SIZE || board[first + k * step] != name)
                return "a block is not one straight run of cells";
        start[block_count++] = (uint8_t)(block->horizontal ? first % SIZE : first / SIZE);
    }
    for (int i = 0; i < SIZE * SIZE; i++) walls[i / SIZE][i % SIZE] = board[i] == 'x';
    if (block_count == 0 || blocks[0].name != 'A') return "no prisoner A";
    return NULL;
}

/* The breadth-first search from start: the goal state's index, or -1 when there is none. */
static int32_t solve(const uint8_t *start) {
    int goal = SIZE - blocks[0].length;
    add(start, -1, 0, 0);
    for (size_t head = 0; head < state_count; head++) {
        uint8_t position[MAX_BLOCKS];
        memcpy(position, states[head].position, block_count);
        if (position[0] == goal) return (int32_t)head;
        int taken[SIZE][SIZE];
        memcpy(taken, walls, sizeof taken);
        for (int b = 0; b < block_count; b++)
            for (int k = 0; k < blocks[b].length; k++) {
                int along = position[b] + k;
                if (blocks[b].horizontal) taken[blocks[b].line][along] = 1; else taken[along][blocks[b].line] = 1;
            }
        for (int b = 0; b < block_count; b++) {
            for (int step = -1; step <= 1; step += 2) {
                for (int distance = 1;; distance++) {
                    int edge = step < 0 ? position[b] - distance : position[b] + blocks[b].length - 1 + distance;
                    if (edge < 0 || edge >= SIZE) break;
                    if (blocks[b].horizontal ? taken[blocks[b].line][edge] : taken[edge][blocks[b].line]) break;
                    uint8_t next[MAX_BLOCKS];
                    memcpy(next, position, block_count);
                    next[b] = (uint8_t)(position[b] + step * distance);
                    add(next, (int32_t)head, blocks[b].name, step * distance);
                }
            }
        }
    }
    return -1;
}

/* Reads, solves and answers one line; returns the error, if any, without printing it. */
static const char *answer(char *line) {
    uint8_t start[MAX_BLOCKS] = {0};
    const char *error = read_board(line, start);
    if (error) return error;
    double began = now();
    int32_t goal = solve(start);
    double seconds = now() - began;
    print_answer(goal, seconds);
    forget();
    return NULL;
}

int main(int argc, char **argv) {
    int serving = argc == 2 && strcmp(argv[1], "--serve") == 0;
    if (argc > 1 && !serving) { fputs("usage: rushhour_bfs [--serve]\n", stderr); return 2; }
    /* getline grows the buffer to fit, so no line is cut in two and read as two puzzles. */
    char *line = NULL;
    size_t capacity = 0;
    if (!serving) {
        if (getline(&line, &capacity, stdin) < 0) { free(line); fputs("rushhour_bfs: no input\n", stderr); return 1; }
        const char *error = answer(line);
        free(line);
        if (error) { fprintf(stderr, "rushhour_bfs: %s\n", error); return 1; }
        return 0;
    }
    while (getline(&line, &capacity, stdin) >= 0) {
        const char *error = answer(line);
        if (error) printf("{\"status\":\"error\",\"message\":\"%s\"}\n", error);
        fflush(stdout);
    }
    free(line);
    return 0;
}
