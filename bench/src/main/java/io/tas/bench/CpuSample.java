package io.tas.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** Process / machine CPU counters, read at the measured-window edges. */
record CpuSample(long wallNanos, long selfCpuNanos, long serverTicks, long auxTicks, long sysIdle, long sysTotal, long sysIrq) {
    static final long CLK_TCK = Long.getLong("bench.clkTck", 100L);

    /** utime+stime ticks of /proc/PID/stat, or -1. */
    static long ticks(Path stat, String wantComm) {
        try {
            String st = Files.readString(stat);
            int open = st.indexOf('(');
            int close = st.lastIndexOf(')');
            if (wantComm != null && !st.substring(open + 1, close).equals(wantComm)) {
                return -1;
            }
            String[] f = st.substring(close + 2).split(" ");
            // after "pid (comm) ": f[0]=state; utime (field 14 overall) is f[11], stime f[12]
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Summed CPU ticks of every process whose comm is {@code name} (e.g. all PostgreSQL backends). */
    static long ticksByName(String name) {
        long sum = 0;
        try (var dirs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path d : dirs) {
                long t = ticks(d.resolve("stat"), name);
                if (t > 0) {
                    sum += t;
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return sum;
    }

    static CpuSample take(long serverPid, String auxName) {
        long wall = System.nanoTime();
        long self = -1;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            self = os.getProcessCpuTime();
        }
        long srv = serverPid > 0 ? ticks(Path.of("/proc/" + serverPid + "/stat"), null) : -1;
        long aux = auxName != null ? ticksByName(auxName) : -1;
        long idle = 0, total = 0, irq = 0;
        try {
            String line = Files.readAllLines(Path.of("/proc/stat")).getFirst();
            String[] f = line.trim().split("\\s+");
            for (int i = 1; i < f.length && i <= 8; i++) {
                long v = Long.parseLong(f[i]);
                total += v;
                if (i == 4 || i == 5) {
                    idle += v; // idle + iowait
                }
                if (i == 6 || i == 7) {
                    irq += v; // irq + softirq: mostly loopback packets of the measured traffic, billed to no process
                }
            }
        } catch (IOException | RuntimeException e) {
            total = 0;
        }
        return new CpuSample(wall, self, srv, aux, idle, total, irq);
    }
}
