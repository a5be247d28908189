package io.tas.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * The database baseline of the PostgreSQL benches: --threads connections, each looping one transaction of
 * UPDATE one row (its own), INSERT one journal row, COMMIT, as fast as it can (closed loop). The smallest write a
 * service that keeps a history can do per request, with no service in front. Needs the PostgreSQL JDBC driver on
 * the class path (the server's target/libs/postgresql-*.jar): java -cp bench.jar:pg.jar io.tas.bench.Main jdbc-loop
 * ... Warm-up, window, bounds and the result file as for `load`.
 */
final class JdbcLoop {
    private JdbcLoop() {
    }

    static int run(Args a) throws Exception {
        String url = a.required("url");
        String user = a.str("user", "postgres");
        String password = a.str("password", "");
        int threads = a.integer("threads", 16);
        double warmup = a.dbl("warmup-seconds", 20);
        double seconds = a.dbl("seconds", 10);
        long maxRequests = a.lng("max-requests", 10_000_000L);
        String label = a.str("label", "jdbc-loop");
        String resultFile = a.str("result-file", null);
        double progressSeconds = a.dbl("progress-seconds", 0);
        String auxName = a.str("aux-cpu-process", null);
        a.done();
        if (threads < 1 || threads > 1000) throw new IllegalArgumentException("--threads must be 1..1000");

        try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
            s.execute("create table if not exists jdbc_bench_balance (id int primary key, available numeric(38,18) not null)");
            s.execute("create table if not exists jdbc_bench_journal (id bigserial primary key, balance_id int not null, amount numeric(38,18) not null)");
            for (int t = 0; t < threads; t++) s.execute("insert into jdbc_bench_balance values (" + t + ", 1000000000) on conflict do nothing");
        }
        Measurement m = new Measurement(label, warmup, seconds, maxRequests);
        System.out.printf(Locale.ROOT, "[%s] jdbc loop: %s threads=%d (update one row + insert one row + commit) warmup=%.1fs measure=%.1fs%n",
                label, url, threads, warmup, seconds);
        List<Worker> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Worker w = new Worker(t, url, user, password, m);
            workers.add(w);
            w.thread = Thread.ofPlatform().name("jdbc-loop-" + t).start(w);
        }
        m.drive(progressSeconds, -1, auxName);
        // Every worker stops at the end of the window; one in a statement gets its statement timeout at most.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        for (Worker w : workers) {
            w.thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (w.thread.isAlive()) {
                System.out.printf("[%s] %s still running after the drain deadline; not counted%n", label, w.thread.getName());
            }
        }
        Histogram all = Measurement.histogram();
        long ok = 0, sqlErrors = 0, warmupCount = 0;
        for (Worker w : workers) {
            if (w.thread.isAlive()) continue;
            all.add(w.hist);
            ok += w.ok;
            sqlErrors += w.errors;
            warmupCount += w.warmup;
        }
        Map<String, Long> errors = new LinkedHashMap<>();
        errors.put("sql_errors", sqlErrors);
        Map<String, String> r = m.summary(all, ok, errors, warmupCount);
        r.put("connections", Integer.toString(threads));
        m.write(r, auxName, resultFile);
        return ok > 0 ? 0 : 2;
    }

    private static final class Worker implements Runnable {
        final Histogram hist = Measurement.histogram();
        final int id;
        final String url, user, password;
        final Measurement m;
        long ok, errors, warmup;
        Thread thread;

        Worker(int id, String url, String user, String password, Measurement m) {
            this.id = id;
            this.url = url;
            this.user = user;
            this.password = password;
            this.m = m;
        }

        /**
         * A connection, retried every 100 ms until the warm-up ends: PostgreSQL refuses clients over max_connections,
         * and other work on the machine may hold some for a while. Null (one error) when none came by then.
         */
        private Connection connect() throws InterruptedException {
            while (true) {
                try {
                    return DriverManager.getConnection(url, user, password);
                } catch (SQLException e) {
                    m.sampleError("connect (retried until the warm-up ends): SQL " + e.getSQLState() + " " + e.getMessage());
                    if (System.nanoTime() >= m.measureStart) {
                        errors++;
                        return null;
                    }
                    Thread.sleep(100);
                }
            }
        }

        @Override
        public void run() {
            Connection conn;
            try {
                conn = connect();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (conn == null) return;
            try (Connection c = conn;
                 PreparedStatement up = c.prepareStatement("update jdbc_bench_balance set available = available - 1 where id = ?");
                 PreparedStatement in = c.prepareStatement("insert into jdbc_bench_journal (balance_id, amount) values (?, -1)")) {
                c.setAutoCommit(false);
                up.setQueryTimeout(10);
                in.setQueryTimeout(10);
                while (m.startRequest()) {
                    long t0 = System.nanoTime();
                    try {
                        up.setInt(1, id);
                        up.executeUpdate();
                        in.setInt(1, id);
                        in.executeUpdate();
                        c.commit();
                    } catch (SQLException e) {
                        if (m.measured(t0)) errors++;
                        m.sampleError("SQL " + e.getSQLState() + " " + e.getMessage());
                        c.rollback();
                        continue;
                    }
                    long t1 = System.nanoTime();
                    if (m.measured(t0)) {
                        Measurement.record(hist, t0, t1);
                        ok++;
                    } else {
                        warmup++;
                    }
                }
                m.awaitWindowSampled();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (SQLException e) {
                errors++;
                m.sampleError("SQL " + e.getSQLState() + " " + e.getMessage());
            }
        }
    }
}
