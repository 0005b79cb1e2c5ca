"""Each bot's sandbox: bubblewrap, seccomp, cgroups, uids, work directories, the reaper, CPU
affinity. Imports nothing above process/."""
