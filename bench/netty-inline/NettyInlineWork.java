import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The design D110 sets aside, measured: no hand-off at all. Raw Netty answers a signed settings read on its event loop
 * and does the part of TAS's work that a non-blocking design would keep: the key's MAC from a Caffeine cache (cloned
 * per request, as TAS does), the timestamp window, the HMAC-SHA256 signature checked in constant time, the settings
 * from a Caffeine cache, the envelope written by Jackson, a request id. It leaves out what TAS also does (catalog,
 * guards, passphrase, MDC, metrics), so it is the best case for that design. bench/run's `netty-inline-work` target
 * runs it as a single-file program on bench.jar (Netty) plus Jackson and Caffeine:
 * {@code java -cp CP bench/netty-inline/NettyInlineWork.java PORT ACCESS_KEY SECRET WINDOW_MS}.
 */
public final class NettyInlineWork {
    record SymbolConfig(String category, String symbol, String marginMode, String leverage, String longLeverage,
                        String shortLeverage) {}
    record CoinConfig(String coin, String leverage) {}
    record Settings(String uid, String accountMode, String accountLevel, String assetMode, String holdMode,
                    String stpMode, String deltaSwitch, String repayMode, List<SymbolConfig> symbolConfigList,
                    List<CoinConfig> coinConfigList) {}
    record Envelope(String code, String msg, long requestTime, Object data) {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String accessKey = args[1];
        Mac keyed = Mac.getInstance("HmacSHA256");
        keyed.init(new SecretKeySpec(args[2].getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        long windowMs = Long.parseLong(args[3]);
        Cache<String, Mac> macs = Caffeine.newBuilder().maximumSize(100_000).build();
        macs.put(accessKey, keyed);
        Cache<String, Settings> settings = Caffeine.newBuilder().maximumSize(100_000).build();
        settings.put(accessKey, new Settings("1000000001", "unified", "advanced", "multi_assets", "one_way_mode",
                "cancel_taker", "no", "auto",
                List.of(new SymbolConfig("USDT-FUTURES", "BTCUSDT", "isolated", "10", "10", "10"),
                        new SymbolConfig("USDT-FUTURES", "ETHUSDT", "crossed", "20", "20", "20")),
                List.of(new CoinConfig("BTC", "5"), new CoinConfig("USDT", "5"))));
        ObjectMapper json = new ObjectMapper();
        AtomicLong requestIds = new AtomicLong();

        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(Runtime.getRuntime().availableProcessors(),
                EpollIoHandler.newFactory());
        new ServerBootstrap().group(boss, workers).channel(EpollServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(64 * 1024),
                                new SimpleChannelInboundHandler<FullHttpRequest>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) throws Exception {
                                        ctx.writeAndFlush(answer(req));
                                    }

                                    @Override
                                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                        ctx.close();
                                    }

                                    private FullHttpResponse answer(FullHttpRequest req) throws Exception {
                                        if (req.uri().equals("/api/v2/public/time")) { // the readiness probe, as TAS's public row
                                            return reply(HttpResponseStatus.OK, ("{\"code\":\"00000\",\"data\":{\"serverTime\":\""
                                                    + System.currentTimeMillis() + "\"}}").getBytes(StandardCharsets.UTF_8));
                                        }
                                        HttpHeaders h = req.headers();
                                        String key = h.get("ACCESS-KEY");
                                        String sign = h.get("ACCESS-SIGN");
                                        String timestamp = h.get("ACCESS-TIMESTAMP");
                                        Mac prototype = key == null ? null : macs.getIfPresent(key);
                                        if (prototype == null || sign == null || timestamp == null) {
                                            return reply(HttpResponseStatus.BAD_REQUEST, "{\"code\":\"40006\"}".getBytes(StandardCharsets.UTF_8));
                                        }
                                        long sent;
                                        try {
                                            sent = Long.parseLong(timestamp);
                                        } catch (NumberFormatException e) {
                                            sent = Long.MIN_VALUE;
                                        }
                                        if (sent == Long.MIN_VALUE || Math.abs(System.currentTimeMillis() - sent) > windowMs) {
                                            return reply(HttpResponseStatus.BAD_REQUEST, "{\"code\":\"40008\"}".getBytes(StandardCharsets.UTF_8));
                                        }
                                        Mac mac = (Mac) prototype.clone();
                                        mac.update((timestamp + req.method().name() + req.uri()).getBytes(StandardCharsets.UTF_8));
                                        mac.update(req.content().nioBuffer());
                                        byte[] expected = Base64.getEncoder().encode(mac.doFinal());
                                        if (!MessageDigest.isEqual(expected, sign.getBytes(StandardCharsets.US_ASCII))) {
                                            return reply(HttpResponseStatus.BAD_REQUEST, "{\"code\":\"40009\"}".getBytes(StandardCharsets.UTF_8));
                                        }
                                        byte[] body = json.writeValueAsBytes(new Envelope("00000", "success",
                                                System.currentTimeMillis(), settings.getIfPresent(key)));
                                        return reply(HttpResponseStatus.OK, body);
                                    }

                                    private FullHttpResponse reply(HttpResponseStatus status, byte[] body) {
                                        FullHttpResponse resp = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                                                Unpooled.wrappedBuffer(body));
                                        resp.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                                                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                                                .set("x-request-id", Long.toString(requestIds.incrementAndGet(), 36));
                                        return resp;
                                    }
                                });
                    }
                })
                .bind("127.0.0.1", port).sync().channel().closeFuture().sync();
    }
}
