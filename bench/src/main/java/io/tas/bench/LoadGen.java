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
import java.nio.charset.StandardCharsets;
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
 * <p>N keep-alive connections; each sends one freshly signed request (GET, or POST with a body template), waits for
 * the full response, then sends the next (no pipelining). Connection i signs with key i mod k of the credentials
 * (one account per connection with a credentials file). Warm-up and measured window as in {@link Measurement}.
 * Everything is bounded: by time (warm-up + measured + drain deadline) and by a hard cap on the total number of
 * requests.
 */
final class LoadGen {
    // ---- configuration
    private final String host;
    private final int port;
    private final SignedRequests.Spec spec;
    private final List<Credentials> creds;
    private final int connections;
    private final int requestTimeoutSeconds;
    private final int maxReconnects;
    private final List<ByteBuf> expect = new ArrayList<>();

    private final AtomicLong reconnects = new AtomicLong();
    private Measurement m;
    private CountDownLatch finished;
    private Bootstrap bootstrap;
    private final List<Conn> conns = new ArrayList<>();

    private LoadGen(String host, int port, SignedRequests.Spec spec, List<Credentials> creds, int connections,
                    int requestTimeoutSeconds, int maxReconnects, List<String> expect) {
        this.host = host;
        this.port = port;
        this.spec = spec;
        this.creds = creds;
        this.connections = connections;
        this.requestTimeoutSeconds = requestTimeoutSeconds;
        this.maxReconnects = maxReconnects;
        for (String e : expect) {
            this.expect.add(Unpooled.unreleasableBuffer(Unpooled.copiedBuffer(e, StandardCharsets.UTF_8)));
        }
    }

    static int run(Args a) throws Exception {
        String host = a.str("host", "127.0.0.1");
        int port = Integer.parseInt(a.required("port"));
        SignedRequests.Spec spec = SignedRequests.Spec.from(a, "/api/v3/account/settings");
        List<Credentials> creds = Credentials.all(a);
        int connections = a.integer("connections", 64);
        double warmup = a.dbl("warmup-seconds", 30);
        double seconds = a.dbl("seconds", 10);
        long maxRequests = a.lng("max-requests", 10_000_000L);
        int threads = a.integer("threads", Runtime.getRuntime().availableProcessors());
        int requestTimeout = a.integer("request-timeout-seconds", 10);
        int maxReconnects = a.integer("max-reconnects", 1000);
        List<String> expect = a.all("expect", List.of("00000"));
        String label = a.str("label", host + ":" + port);
        String resultFile = a.str("result-file", null);
        long serverPid = a.lng("server-pid", -1);
        double progressSeconds = a.dbl("progress-seconds", 0);
        String auxName = a.str("aux-cpu-process", null);
        Transport transport = Transport.select(a.str("transport", "auto"));
        a.done();

        if (connections < 1 || connections > 10_000) throw new IllegalArgumentException("--connections out of range");
        LoadGen g = new LoadGen(host, port, spec, creds, connections, requestTimeout, maxReconnects, expect);
        Measurement m = new Measurement(label, warmup, seconds, maxRequests);
        RssSampler rss = RssSampler.start(serverPid); // over warm-up and window: the load's whole run
        Map<String, String> result = g.execute(m, transport, threads, serverPid, progressSeconds, auxName);
        long rssMaxKb = rss.stop();
        if (rssMaxKb > 0) result.put("server_rss_max_mb", Long.toString(rssMaxKb / 1024));
        m.write(result, auxName, resultFile);
        return Long.parseLong(result.get("ok")) > 0 ? 0 : 2;
    }

    private Map<String, String> execute(Measurement measurement, Transport transport, int threads, long serverPid,
                                        double progressSeconds, String auxName) throws InterruptedException {
        m = measurement;
        EventLoopGroup group = transport.group(threads);
        finished = new CountDownLatch(connections);
        bootstrap = new Bootstrap()
                .group(group)
                .channel(transport.clientChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5000)
                .remoteAddress(host, port);

        System.out.printf(Locale.ROOT,
                "[%s] load: %s:%d %s %s%s%s connections=%d keys=%d client-threads=%d transport=%s warmup=%.1fs measure=%.1fs%n",
                m.label, host, port, spec.method(), spec.path(),
                spec.bodyTemplate().isEmpty() ? "" : " body=" + spec.bodyTemplate() + " {n}=" + spec.from() + ".." + spec.to(),
                spec.cursors().isEmpty() ? "" : " {cursor}=" + spec.cursors().size() + " cursors",
                connections, Math.min(connections, creds.size()), threads, transport.name(),
                (m.measureStart - m.t0) / 1e9, (m.measureEnd - m.measureStart) / 1e9);
        long deadline = m.measureEnd + TimeUnit.SECONDS.toNanos(requestTimeoutSeconds + 5L);

        // With cursors, connection i starts at cursor i * (cursors / connections): the connections walk apart.
        long stride = Math.max(1, spec.cursors().size() / connections);
        for (int i = 0; i < connections; i++) {
            Conn c = new Conn(creds.get(i % creds.size()), spec.cursors().isEmpty() ? 0 : i * stride);
            conns.add(c);
            c.connect();
        }
        m.drive(progressSeconds, serverPid, auxName);

        long waitNanos = deadline - System.nanoTime();
        boolean clean = finished.await(Math.max(0, waitNanos), TimeUnit.NANOSECONDS);
        if (!clean) {
            System.out.printf("[%s] drain deadline reached; force-closing %d connection(s)%n", m.label, finished.getCount());
            for (Conn c : conns) {
                c.forceClose();
            }
            finished.await(2, TimeUnit.SECONDS);
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);

        // ---- aggregate
        Histogram all = Measurement.histogram();
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
        Map<String, Long> errors = new LinkedHashMap<>();
        errors.put("non200", non200);
        errors.put("bad_body", badBody);
        errors.put("io_errors", ioErrors);
        errors.put("timeouts", timeouts);
        errors.put("connect_errors", connectErrors);
        Map<String, String> r = m.summary(all, ok, errors, warmupCount);
        r.put("reconnects", Long.toString(Math.min(reconnects.get(), maxReconnects)));
        r.put("connections", Integer.toString(connections));
        r.put("client_threads", Integer.toString(threads));
        r.put("transport", transport.name());
        return r;
    }

    /** One logical connection (re-established on unexpected close, within budget). Event-loop confined. */
    private final class Conn extends SimpleChannelInboundHandler<FullHttpResponse> {
        final Histogram hist = Measurement.histogram();
        long ok, non200, badBody, ioErrors, timeouts, connectErrors, warmupResponses;
        private final Credentials key;
        private final long firstSeq;
        private SignedRequests requests;
        private volatile Channel channel;
        private long sentAt;
        private boolean inFlight;
        private boolean done;

        Conn(Credentials key, long firstSeq) {
            this.key = key;
            this.firstSeq = firstSeq;
        }

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
                    m.sampleError("connect failed: " + fut.cause());
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
                requests = new SignedRequests(key, host, port, spec, firstSeq);
            }
            sendNext(ctx);
        }

        private void sendNext(ChannelHandlerContext ctx) {
            if (!m.startRequest()) {
                finish(ctx.channel());
                return;
            }
            var req = requests.next();
            inFlight = true;
            sentAt = System.nanoTime();
            ctx.writeAndFlush(req).addListener(f -> {
                if (!f.isSuccess()) {
                    ctx.close(); // counted in channelInactive as an in-flight I/O error
                }
            });
        }

        private boolean expected(FullHttpResponse resp) {
            for (ByteBuf e : expect) {
                if (ByteBufUtil.indexOf(e, resp.content()) < 0) return false;
            }
            return true;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse resp) {
            long now = System.nanoTime();
            inFlight = false;
            boolean good = resp.status().code() == 200 && expected(resp);
            if (!good) {
                m.sampleError("HTTP " + resp.status().code() + (m.measured(sentAt) ? "" : " (warm-up)") + " "
                        + resp.content().toString(StandardCharsets.UTF_8));
            }
            if (m.measured(sentAt)) {
                Measurement.record(hist, sentAt, now);
                if (resp.status().code() != 200) {
                    non200++;
                } else if (!good) {
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
                if (m.measured(sentAt)) {
                    timeouts++;
                }
                m.sampleError("request timed out after " + requestTimeoutSeconds + " s");
                inFlight = false;
            }
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (inFlight) {
                inFlight = false;
                if (m.measured(sentAt)) {
                    ioErrors++;
                }
                m.sampleError("connection closed with a request in flight");
            }
            if (!done) {
                retryOrFinish(ctx.channel().eventLoop());
            }
        }

        private void retryOrFinish(io.netty.channel.EventLoop loop) {
            if (done) {
                return;
            }
            if (m.timeLeft() && reconnects.incrementAndGet() <= maxReconnects) {
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

        void forceClose() {
            Channel ch = channel;
            if (ch != null) {
                ch.eventLoop().execute(() -> {
                    if (inFlight && m.measured(sentAt)) {
                        timeouts++;
                    }
                    inFlight = false;
                    finish(ch);
                });
            }
        }
    }
}
