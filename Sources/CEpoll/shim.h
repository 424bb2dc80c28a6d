// Linux APIs that the Swift Glibc module does not import: epoll, eventfd, malloc_trim,
// and two GNU extensions glibc exports but declares only under _GNU_SOURCE (accept4,
// the CPU affinity mask).
#include <malloc.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/types.h>

int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);
int sched_getaffinity(pid_t pid, size_t cpusetsize, cpu_set_t *mask);
