// Linux readiness APIs that the Swift Glibc module does not import.
#include <sys/epoll.h>
#include <sys/eventfd.h>
