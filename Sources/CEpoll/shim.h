// Linux APIs that the Swift Glibc module does not import: epoll, eventfd, and the
// CPU affinity mask (a GNU extension glibc exports but declares only under _GNU_SOURCE).
#include <sched.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/types.h>

int sched_getaffinity(pid_t pid, size_t cpusetsize, cpu_set_t *mask);
