package io.tas.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.timeout.ReadTimeoutException;
import io.netty.handler.timeout.ReadTimeoutHandler;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * Closed-loop HTTP/1.1 load generator.
 *
 * <p>N keep-alive connections; each sends one freshly signed GET, waits for the full response, then sends the
 * next (no pipelining). A warm-up phase (not recorded) is followed by a measured phase. A request belongs to the
 * measured phase when it was <em>sent</em> inside the measured window. Everything is bounded: by time (warm-up +
 * measured + drain deadline) and by a hard cap on the total number of requests.
 */
final class LoadGen {
    private static final long HIGHEST_MICROS = TimeUnit.SECONDS.toMicros(60);

    // ---- configuration
    private final String host;
    private final int port;
    private final String path;
    private final Credentials creds;
    private final int connections;
    private final long maxRequests;
    private final int requestTimeoutSeconds;
    private final int maxReconnects;
    private final ByteBuf expect;

    // ---- run clock (System.nanoTime based)
    private long measureStart;
    private long measureEnd;
    private final AtomicLong issued = new AtomicLong();
    private final AtomicLong capReachedAt = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong reconnects = new AtomicLong();
    private CountDownLatch finished;
    private Bootstrap bootstrap;
    private final List<Conn> conns = new ArrayList<>();

    private LoadGen(String host, int port, String path, Credentials creds, int connections, long maxRequests,
                    int requestTimeoutSeconds, int maxReconnects, String expect) {
        this.host = host;
        this.port = port;
        this.path = path;
        this.creds = creds;
        this.connections = connections;
        this.maxRequests = maxRequests;
        this.requestTimeoutSeconds = requestTimeoutSeconds;
        this.maxReconnects = maxReconnects;
        this.expect = Unpooled.unreleasableBuffer(Unpooled.copiedBuffer(expect, StandardCharsets.UTF_8));
    }

    static int run(Args a) throws Exception {
        String host = a.str("host", "127.0.0.1");
        int port = Integer.parseInt(a.required("port"));
        String path = a.str("path", "/api/v3/account/settings");
        Credentials creds = Credentials.from(a);
        int connections = a.integer("connections", 64);
        double warmup = a.dbl("warmup-seconds", 30);
        double seconds = a.dbl("seconds", 10);
        long maxRequests = a.lng("max-requests", 10_000_000L);
        int threads = a.integer("threads", Runtime.getRuntime().availableProcessors());
        int requestTimeout = a.integer("request-timeout-seconds", 10);
        int maxReconnects = a.integer("max-reconnects", 1000);
        String expect = a.str("expect", "00000");
        String label = a.str("label", host + ":" + port);
        String resultFile = a.str("result-file", null);
        long serverPid = a.lng("server-pid", -1);
        double progressSeconds = a.dbl("progress-seconds", 0);
        String auxName = a.str("aux-cpu-process", null);
        Transport transport = Transport.select(a.str("transport", "auto"));
        a.done();

        if (connections < 1 || connections > 10_000) throw new IllegalArgumentException("--connections out of range");
        if (warmup < 0 || warmup > 600) throw new IllegalArgumentException("--warmup-seconds must be 0..600");
        if (seconds <= 0 || seconds > 600) throw new IllegalArgumentException("--seconds must be >0 and <=600");
        if (maxRequests < 1) throw new IllegalArgumentException("--max-requests must be >= 1");

        LoadGen g = new LoadGen(host, port, path, creds, connections, maxRequests, requestTimeout, maxReconnects, expect);
        Map<String, String> result = g.execute(label, transport, threads, warmup, seconds, serverPid, progressSeconds, auxName);
        if (resultFile != null) {
            StringBuilder sb = new StringBuilder();
            result.forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
            Files.writeString(Path.of(resultFile), sb.toString());
        }
        return Long.parseLong(result.get("ok")) > 0 ? 0 : 2;
    }

    private Map<String, String> execute(String label, Transport transport, int threads, double warmup, double seconds,
                                        long serverPid, double progressSeconds, String auxName)
            throws InterruptedException {
        EventLoopGroup group = transport.group(threads);
        finished = new CountDownLatch(connections);
        bootstrap = new Bootstrap()
                .group(group)
                .channel(transport.clientChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5000)
                .remoteAddress(host, port);

        System.out.printf(Locale.ROOT,
                "[%s] load: %s:%d GET %s connections=%d client-threads=%d transport=%s warmup=%.1fs measure=%.1fs max-requests=%d%n",
                label, host, port, path, connections, threads, transport.name(), warmup, seconds, maxRequests);

        long t0 = System.nanoTime();
        measureStart = t0 + (long) (warmup * 1e9);
        measureEnd = measureStart + (long) (seconds * 1e9);
        long deadline = measureEnd + TimeUnit.SECONDS.toNanos(requestTimeoutSeconds + 5L);

        for (int i = 0; i < connections; i++) {
            Conn c = new Conn();
            conns.add(c);
            c.connect();
        }

        // Progress (requests issued per interval) and CPU sampling at the measured-window edges.
        progressUntil(label, "warm-up", t0, measureStart, progressSeconds);
        CpuSample before = CpuSample.take(serverPid, auxName);
        System.out.printf(Locale.ROOT, "[%s] warm-up done: %d requests issued, measuring...%n", label, issued.get());
        long mid = measureStart + (measureEnd - measureStart) / 2;
        long issuedAtStart = issued.get();
        progressUntil(label, "measure", t0, mid, progressSeconds);
        long issuedAtMid = issued.get();
        progressUntil(label, "measure", t0, measureEnd, progressSeconds);
        long issuedAtEnd = issued.get();
        CpuSample after = CpuSample.take(serverPid, auxName);

        long waitNanos = deadline - System.nanoTime();
        boolean clean = finished.await(Math.max(0, waitNanos), TimeUnit.NANOSECONDS);
        if (!clean) {
            System.out.printf("[%s] drain deadline reached; force-closing %d connection(s)%n", label, finished.getCount());
            for (Conn c : conns) {
                c.forceClose(group);
            }
            finished.await(2, TimeUnit.SECONDS);
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);

        // ---- aggregate
        Histogram all = new Histogram(HIGHEST_MICROS, 3);
        long ok = 0, non200 = 0, badBody = 0, ioErrors = 0, timeouts = 0, connectErrors = 0, warmupCount = 0;
        for (Conn c : conns) {
            all.add(c.hist);
            ok += c.ok;
            non200 += c.non200;
            badBody += c.badBody;
            ioErrors += c.ioErrors;
            timeouts += c.timeouts;
            connectErrors += c.connectErrors;
            warmupCount += c.warmupResponses;
        }
        long windowEnd = Math.min(measureEnd, capReachedAt.get());
        double windowSec = Math.max(1e-9, (windowEnd - measureStart) / 1e9);
        double rps = ok / windowSec;
        long errors = non200 + badBody + ioErrors + timeouts + connectErrors;
        boolean capped = capReachedAt.get() != Long.MAX_VALUE;

        Map<String, String> r = new LinkedHashMap<>();
        r.put("label", label);
        r.put("rps", fmt(rps, 1));
        r.put("p50_ms", fmt(ms(all.getValueAtPercentile(50)), 3));
        r.put("p90_ms", fmt(ms(all.getValueAtPercentile(90)), 3));
        r.put("p99_ms", fmt(ms(all.getValueAtPercentile(99)), 3));
        r.put("p999_ms", fmt(ms(all.getValueAtPercentile(99.9)), 3));
        r.put("max_ms", fmt(ms(all.getMaxValue()), 3));
        r.put("mean_ms", fmt(all.getMean() / 1000.0, 3));
        r.put("errors", Long.toString(errors));
        r.put("ok", Long.toString(ok));
        r.put("non200", Long.toString(non200));
        r.put("bad_body", Long.toString(badBody));
        r.put("io_errors", Long.toString(ioErrors));
        r.put("timeouts", Long.toString(timeouts));
        r.put("connect_errors", Long.toString(connectErrors));
        r.put("reconnects", Long.toString(Math.min(reconnects.get(), maxReconnects)));
        r.put("measured_responses", Long.toString(all.getTotalCount()));
        r.put("warmup_responses", Long.toString(warmupCount));
        r.put("issued_total", Long.toString(issued.get()));
        r.put("window_s", fmt(windowSec, 3));
        r.put("cap_reached", Boolean.toString(capped));
        // Throughput of the first half of the window relative to the second half: well below 1 means the JITs
        // were still warming up when measurement began (raise --warmup-seconds).
        long firstHalf = issuedAtMid - issuedAtStart;
        long secondHalf = issuedAtEnd - issuedAtMid;
        r.put("half_ratio", secondHalf > 0 && !capped ? fmt((double) firstHalf / secondHalf, 3) : "n/a");
        r.put("connections", Integer.toString(connections));
        r.put("client_threads", Integer.toString(threads));
        r.put("transport", transport.name());
        double loadCpu = (after.selfCpuNanos - before.selfCpuNanos) / 1e9 / ((after.wallNanos - before.wallNanos) / 1e9);
        r.put("loadgen_cpu_cores", fmt(loadCpu, 2));
        if (serverPid > 0 && before.serverTicks >= 0 && after.serverTicks >= 0) {
            double srvCpu = (after.serverTicks - before.serverTicks) / (double) CpuSample.CLK_TCK
                    / ((after.wallNanos - before.wallNanos) / 1e9);
            r.put("server_cpu_cores", fmt(srvCpu, 2));
        } else {
            r.put("server_cpu_cores", "n/a");
        }
        double aux = 0;
        if (auxName != null && before.auxTicks >= 0 && after.auxTicks >= 0) {
            aux = Math.max(0, after.auxTicks - before.auxTicks) / (double) CpuSample.CLK_TCK
                    / ((after.wallNanos - before.wallNanos) / 1e9);
            r.put("aux_name", auxName);
            r.put("aux_cpu_cores", fmt(aux, 2));
        } else {
            r.put("aux_cpu_cores", "n/a");
        }
        if (before.sysTotal > 0 && after.sysTotal > before.sysTotal) {
            double busy = 1.0 - (double) (after.sysIdle - before.sysIdle) / (after.sysTotal - before.sysTotal);
            r.put("machine_busy_pct", fmt(busy * 100, 1));
            int ncpu = Runtime.getRuntime().availableProcessors();
            double srv = r.get("server_cpu_cores").equals("n/a") ? 0 : Double.parseDouble(r.get("server_cpu_cores"));
            // CPU used by everything else on the machine (builds, other services): > ~0.1 means a noisy run.
            r.put("other_cpu_cores", fmt(Math.max(0, busy * ncpu - srv - loadCpu - aux), 2));
        } else {
            r.put("machine_busy_pct", "n/a");
            r.put("other_cpu_cores", "n/a");
        }

        System.out.printf(Locale.ROOT,
                "[%s] rps=%s p50=%sms p90=%sms p99=%sms p99.9=%sms max=%sms errors=%d (non200=%d bad-body=%d io=%d timeouts=%d "
                        + "connect=%d) measured=%d window=%ss reconnects=%s cpu(server=%s loadgen=%s %s=%s other=%s "
                        + "machine-busy=%s%%)%s%n",
                label, r.get("rps"), r.get("p50_ms"), r.get("p90_ms"), r.get("p99_ms"), r.get("p999_ms"),
                r.get("max_ms"), errors, non200, badBody, ioErrors, timeouts, connectErrors, all.getTotalCount(),
                r.get("window_s"), r.get("reconnects"), r.get("server_cpu_cores"), r.get("loadgen_cpu_cores"),
                auxName == null ? "aux" : auxName, r.get("aux_cpu_cores"),
                r.get("other_cpu_cores"), r.get("machine_busy_pct"), capped ? " [HARD REQUEST CAP REACHED]" : "");
        return r;
    }

    private void progressUntil(String label, String phase, long t0, long until, double every)
            throws InterruptedException {
        if (every <= 0) {
            sleepUntil(until);
            return;
        }
        long step = (long) (every * 1e9);
        long last = issued.get();
        long lastT = System.nanoTime();
        while (System.nanoTime() < until) {
            long next = Math.min(until, lastT + step);
            sleepUntil(next);
            long now = System.nanoTime();
            long cur = issued.get();
            if (now - lastT >= step / 2) {
                System.out.printf(Locale.ROOT, "[%s]   %-7s t=%5.1fs  %,9.0f req/s%n", label, phase, (now - t0) / 1e9,
                        (cur - last) / ((now - lastT) / 1e9));
            }
            last = cur;
            lastT = now;
        }
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long d;
        while ((d = nanoTime - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(Math.min(d, TimeUnit.MILLISECONDS.toNanos(200)));
        }
    }

    private static double ms(long micros) {
        return micros / 1000.0;
    }

    static String fmt(double v, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    private boolean timeLeft() {
        return System.nanoTime() < measureEnd && capReachedAt.get() == Long.MAX_VALUE;
    }

    /** One logical connection (re-established on unexpected close, within budget). Event-loop confined. */
    private final class Conn extends SimpleChannelInboundHandler<FullHttpResponse> {
        final Histogram hist = new Histogram(HIGHEST_MICROS, 3);
        long ok, non200, badBody, ioErrors, timeouts, connectErrors, warmupResponses;
        private SignedRequests requests;
        private volatile Channel channel;
        private long sentAt;
        private boolean inFlight;
        private boolean done;

        void connect() {
            ChannelFuture f = bootstrap.clone().handler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    ch.pipeline().addLast(
                            new ReadTimeoutHandler(requestTimeoutSeconds),
                            new HttpClientCodec(),
                            new HttpObjectAggregator(4 << 20),
                            Conn.this);
                }
            }).connect();
            f.addListener(fut -> {
                if (!fut.isSuccess()) {
                    connectErrors++;
                    retryOrFinish(f.channel().eventLoop());
                }
            });
        }

        @Override
        public boolean isSharable() {
            return true; // re-added to the pipeline of each reconnect; never used by two channels at once
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            channel = ctx.channel();
            if (requests == null) {
                requests = new SignedRequests(creds, host, port, path);
            }
            sendNext(ctx);
        }

        private void sendNext(ChannelHandlerContext ctx) {
            if (!timeLeft()) {
                finish(ctx.channel());
                return;
            }
            if (issued.incrementAndGet() > maxRequests) {
                capReachedAt.compareAndSet(Long.MAX_VALUE, System.nanoTime());
                finish(ctx.channel());
                return;
            }
            var req = requests.nextGet();
            inFlight = true;
            sentAt = System.nanoTime();
            ctx.writeAndFlush(req).addListener(f -> {
                if (!f.isSuccess()) {
                    ctx.close(); // counted in channelInactive as an in-flight I/O error
                }
            });
        }

        private boolean measured(long t) {
            return t >= measureStart && t < measureEnd;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse resp) {
            long now = System.nanoTime();
            inFlight = false;
            if (measured(sentAt)) {
                long micros = Math.max(1, (now - sentAt) / 1000);
                hist.recordValue(Math.min(micros, HIGHEST_MICROS));
                if (resp.status().code() != 200) {
                    non200++;
                } else if (ByteBufUtil.indexOf(expect, resp.content()) < 0) {
                    badBody++;
                } else {
                    ok++;
                }
            } else {
                warmupResponses++;
            }
            if (!HttpUtil.isKeepAlive(resp)) {
                ctx.close(); // server asked to close; channelInactive reconnects
                return;
            }
            sendNext(ctx);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof ReadTimeoutException && inFlight) {
                if (measured(sentAt)) {
                    timeouts++;
                }
                inFlight = false;
            }
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (inFlight) {
                inFlight = false;
                if (measured(sentAt)) {
                    ioErrors++;
                }
            }
            if (!done) {
                retryOrFinish(ctx.channel().eventLoop());
            }
        }

        private void retryOrFinish(io.netty.channel.EventLoop loop) {
            if (done) {
                return;
            }
            if (timeLeft() && reconnects.incrementAndGet() <= maxReconnects) {
                loop.schedule(this::connect, 10, TimeUnit.MILLISECONDS);
            } else {
                markDone();
            }
        }

        private void finish(Channel ch) {
            markDone();
            ch.close();
        }

        private void markDone() {
            if (!done) {
                done = true;
                finished.countDown();
            }
        }

        void forceClose(EventLoopGroup group) {
            Channel ch = channel;
            if (ch != null) {
                ch.eventLoop().execute(() -> {
                    if (inFlight && measured(sentAt)) {
                        timeouts++;
                    }
                    inFlight = false;
                    finish(ch);
                });
            }
        }
    }

    /** Process / machine CPU counters, read at the measured-window edges. */
    private record CpuSample(long wallNanos, long selfCpuNanos, long serverTicks, long auxTicks, long sysIdle,
                             long sysTotal) {
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
            long idle = 0, total = 0;
            try {
                String line = Files.readAllLines(Path.of("/proc/stat")).getFirst();
                String[] f = line.trim().split("\\s+");
                for (int i = 1; i < f.length && i <= 8; i++) {
                    long v = Long.parseLong(f[i]);
                    total += v;
                    if (i == 4 || i == 5) {
                        idle += v; // idle + iowait
                    }
                }
            } catch (IOException | RuntimeException e) {
                total = 0;
            }
            return new CpuSample(wall, self, srv, aux, idle, total);
        }
    }
}
