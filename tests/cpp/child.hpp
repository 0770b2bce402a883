// SPDX-License-Identifier: Apache-2.0
// Children for the C++ API's tests: this program started again with a
// case's name and an environment, its exit status and stderr checked; and
// what the cases share.
#ifndef WEFT_TESTS_CPP_CHILD_HPP
#define WEFT_TESTS_CPP_CHILD_HPP

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.hpp"

#include <weft/weft.hpp>

extern char **environ;

namespace {

struct child_result {
    int status; // as waitpid gives it
    std::string err;
};

// Runs this program with `arg` and the environment `env` added; stdout is
// dropped, stderr kept.
child_result run_child(const char *self, const std::string &arg,
                       const std::vector<std::string> &env)
{
    int fd[2];
    CHECK(pipe(fd) == 0, "pipe: %s", std::strerror(errno));
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 2);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    std::vector<std::string> envs;
    for (char **e = environ; *e; e++) {
        std::string s(*e);
        bool replaced = false;
        for (const std::string &add : env)
            if (s.compare(0, s.find('=') + 1, add, 0, add.find('=') + 1) == 0)
                replaced = true;
        if (!replaced)
            envs.push_back(s);
    }
    for (const std::string &add : env)
        envs.push_back(add);
    std::vector<char *> envp;
    for (std::string &s : envs)
        envp.push_back(s.data());
    envp.push_back(nullptr);
    std::string a0(self), a1(arg);
    char *argv[] = {a0.data(), a1.data(), nullptr};
    pid_t pid;
    int rc = posix_spawn(&pid, self, &fa, nullptr, argv, envp.data());
    CHECK(rc == 0, "posix_spawn: %s", std::strerror(rc));
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    child_result r{0, {}};
    char buf[4096];
    ssize_t got;
    while ((got = read(fd[0], buf, sizeof buf)) > 0)
        r.err.append(buf, static_cast<std::size_t>(got));
    close(fd[0]);
    CHECK(waitpid(pid, &r.status, 0) == pid, "waitpid: %s", std::strerror(errno));
    return r;
}

bool exited_ok(const child_result &r) { return WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0; }

// A child that must succeed, silently unless `quiet` is false.
void expect_ok(const char *self, const char *name, const std::vector<std::string> &env,
               bool quiet = true)
{
    child_result r = run_child(self, name, env);
    CHECK(exited_ok(r), "case %s failed (status %d): %s", name, r.status, r.err.c_str());
    CHECK(!quiet || r.err.empty(), "case %s printed: %s", name, r.err.c_str());
}

// A child that must stop (not exit 0) with `message` on stderr.
void expect_stop(const char *self, const char *name, const std::vector<std::string> &env,
                 const char *message)
{
    child_result r = run_child(self, name, env);
    CHECK(!exited_ok(r), "case %s was accepted", name);
    CHECK(r.err.find(message) != std::string::npos, "case %s: no \"%s\" in: %s", name, message,
          r.err.c_str());
}

// A child's worker count: CASE_WORKERS, or `fallback` when it is unset.
unsigned workers_from_env(unsigned fallback)
{
    const char *s = std::getenv("CASE_WORKERS");
    return s ? static_cast<unsigned>(std::atoi(s)) : fallback;
}

// On the calling worker: spawns (so that the split deque shares what lies
// below) until a thief sets `flag`.  At one worker nobody could set it.
void wait_for_thief(const std::atomic<bool> &flag)
{
    if (weft::workers() < 2)
        return;
    // Acquire: the thief's writes before it set the flag.
    while (!flag.load(std::memory_order_acquire))
        weft::join([] {}, [] {});
}

// The path of this program (children are started from it).
std::string self_path()
{
    char path[4096];
    ssize_t len = readlink("/proc/self/exe", path, sizeof path - 1);
    CHECK(len > 0, "readlink: %s", std::strerror(errno));
    path[len] = '\0';
    return path;
}

} // namespace

#endif
