/* A plain breadth-first Rush Hour solver in C: an example of an outside solver for Gridlock
 * (`gridlock check`, and the coming `--external`). The same contract as rushhour_bfs.py: one
 * board of 36 characters on standard input (Fogleman's line format; other words on the line
 * are ignored), one JSON object on standard output, {"status":"solved","moves":[...]} with the
 * fewest moves or {"status":"unsolvable"}.
 *
 *     cc -O2 -o rushhour_bfs examples/external/rushhour_bfs.c
 *     echo 'ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo' | ./rushhour_bfs
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void print_moves(int32_t index) {
    int count = 0;
    for (int32_t at = index; states[at].parent >= 0; at = states[at].parent) count++;
    int32_t *path = malloc(sizeof(int32_t) * (count + 1));
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
    printf("]}\n");
    free(path);
}

int main(void) {
    char line[4096], board[SIZE * SIZE + 1] = {0};
    if (!fgets(line, sizeof line, stdin)) { fputs("rushhour_bfs: no input\n", stderr); return 1; }
    for (char *word = strtok(line, " \t\r\n"); word; word = strtok(NULL, " \t\r\n"))
        if (strlen(word) == SIZE * SIZE) memcpy(board, word, SIZE * SIZE);
    if (!board[0]) { fputs("rushhour_bfs: expected a board of 36 characters\n", stderr); return 1; }
    uint8_t start[MAX_BLOCKS] = {0};
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
        start[block_count++] = (uint8_t)(block->horizontal ? first % SIZE : first / SIZE);
    }
    for (int i = 0; i < SIZE * SIZE; i++) walls[i / SIZE][i % SIZE] = board[i] == 'x';
    if (block_count == 0 || blocks[0].name != 'A') { fputs("rushhour_bfs: no prisoner A\n", stderr); return 1; }
    int goal = SIZE - blocks[0].length;
    add(start, -1, 0, 0);
    for (size_t head = 0; head < state_count; head++) {
        uint8_t position[MAX_BLOCKS];
        memcpy(position, states[head].position, block_count);
        if (position[0] == goal) { print_moves((int32_t)head); return 0; }
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
    printf("{\"status\":\"unsolvable\"}\n");
    return 0;
}
