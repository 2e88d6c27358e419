/* A unix-socket relay for the fault tests: `sockproxy LISTEN TARGET` accepts
 * on LISTEN and relays each connection to TARGET (libvirtd's socket) in a
 * child. Killing its process group is, for the lab, libvirtd going away
 * mid-cell, while the real libvirtd (shared with others) keeps running. */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int unix_socket(const char *path, int listening)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
    if (listening) {
        unlink(path);
        if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(fd, 16) < 0)
            return -1;
    } else if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
        return -1;
    }
    return fd;
}

static void relay(int a, int b)
{
    struct pollfd p[2] = {{.fd = a, .events = POLLIN}, {.fd = b, .events = POLLIN}};
    char buf[65536];
    for (;;) {
        if (poll(p, 2, -1) < 0)
            return;
        for (int i = 0; i < 2; i++) {
            if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t n = read(p[i].fd, buf, sizeof buf);
            if (n <= 0 || write(p[1 - i].fd, buf, (size_t)n) != n)
                return;
        }
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: sockproxy LISTEN TARGET\n");
        return 2;
    }
    signal(SIGCHLD, SIG_IGN);
    int l = unix_socket(argv[1], 1);
    if (l < 0) {
        perror(argv[1]);
        return 1;
    }
    for (;;) {
        int c = accept(l, NULL, NULL);
        if (c < 0)
            continue;
        if (fork() == 0) {
            int t = unix_socket(argv[2], 0);
            if (t >= 0)
                relay(c, t);
            _exit(0);
        }
        close(c);
    }
}
