// scrollwork-measure RESULT PROGRAM [ARGUMENT...]
//
// Runs PROGRAM with its arguments, standard streams and environment inherited, waits for it,
// and writes to the file RESULT one line: its wait status, its peak resident memory in
// kilobytes (wait4's ru_maxrss) and its wall time in nanoseconds.
//
// The benchmarks' whole-process cases start programs through it. A child spawned by a process
// counts that process's resident memory in its own ru_maxrss (Linux records the old address
// space's high-water mark at exec, and a posix_spawn child execs from its parent's), so a
// benchmark holding 120 MB saw every child peak at 120 MB. This helper holds about one.
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: scrollwork-measure RESULT PROGRAM [ARGUMENT...]\n");
        return 2;
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t child;
    int spawned = posix_spawn(&child, argv[2], NULL, NULL, &argv[2], environ);
    if (spawned != 0) {
        fprintf(stderr, "scrollwork-measure: posix_spawn %s: %s\n", argv[2], strerror(spawned));
        return 127;
    }
    int status = 0;
    struct rusage usage;
    while (wait4(child, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "scrollwork-measure: wait4: %s\n", strerror(errno));
            return 127;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    long long nanoseconds = (long long)(end.tv_sec - start.tv_sec) * 1000000000LL + (end.tv_nsec - start.tv_nsec);
    FILE *result = fopen(argv[1], "w");
    if (result == NULL) {
        fprintf(stderr, "scrollwork-measure: %s: %s\n", argv[1], strerror(errno));
        return 127;
    }
#ifdef __APPLE__
    long kilobytes = usage.ru_maxrss / 1024;
#else
    long kilobytes = usage.ru_maxrss;
#endif
    fprintf(result, "%d %ld %lld\n", status, kilobytes, nanoseconds);
    fclose(result);
    return 0;
}
