package io.tas.bench;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * Raw Netty "hello world" HTTP/1.1 server: every request, whatever its method/path, gets
 * 200 + application/json + keep-alive + a fixed body (the bytes captured from the real service).
 * This is the upper bound the real service is compared against.
 *
 * <p>{@code --offload virtual-threads} answers each request from a new virtual thread instead of the event loop: what a
 * Netty front end for blocking handlers (JDBC) must do, so the cost of that hand-off shows beside the inline answer.
 */
final class BaselineServer {

    static int run(Args a) throws Exception {
        int port = a.integer("port", 18080);
        String host = a.str("host", "127.0.0.1");
        String bodyFile = a.str("body-file", null);
        int threads = a.integer("threads", Runtime.getRuntime().availableProcessors());
        Transport transport = Transport.select(a.str("transport", "auto"));
        String offload = a.str("offload", "none");
        a.done();
        Executor answerOn = switch (offload) {
            case "none" -> null;
            case "virtual-threads" -> Executors.newVirtualThreadPerTaskExecutor();
            default -> throw new IllegalArgumentException("--offload is none or virtual-threads, not " + offload);
        };

        byte[] body = bodyFile == null
                ? "{\"code\":\"00000\",\"msg\":\"success\",\"data\":{}}".getBytes()
                : Files.readAllBytes(Path.of(bodyFile));
        ByteBuf shared = Unpooled.unreleasableBuffer(Unpooled.directBuffer(body.length).writeBytes(body).asReadOnly());

        EventLoopGroup boss = transport.group(1);
        EventLoopGroup workers = transport.group(threads);
        try {
            ServerBootstrap b = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(transport.serverChannel())
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(),
                                    new HttpServerKeepAliveHandler(),
                                    new Handler(shared, answerOn));
                        }
                    });
            Channel ch = b.bind(host, port).sync().channel();
            System.out.printf("netty-baseline listening on %s:%d transport=%s threads=%d offload=%s body=%d bytes%n",
                    host, port, transport.name(), threads, offload, body.length);
            System.out.flush();
            CountDownLatch stop = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                ch.close();
                stop.countDown();
            }));
            ch.closeFuture().sync();
            return 0;
        } finally {
            workers.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS);
            boss.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    @ChannelHandler.Sharable
    private static final class Handler extends ChannelInboundHandlerAdapter {
        private final ByteBuf body;
        private final Executor answerOn; // null: answer on the event loop

        Handler(ByteBuf body, Executor answerOn) {
            this.body = body;
            this.answerOn = answerOn;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof HttpRequest req) {
                    // Remember per-request keep-alive; the keep-alive handler also enforces it.
                    ctx.channel().attr(KA).set(HttpUtil.isKeepAlive(req));
                }
                if (msg instanceof LastHttpContent) {
                    FullHttpResponse resp = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                            body.duplicate());
                    resp.headers()
                            .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                            .setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
                    Boolean ka = ctx.channel().attr(KA).get();
                    resp.headers().set(HttpHeaderNames.CONNECTION,
                            ka == null || ka ? HttpHeaderValues.KEEP_ALIVE : HttpHeaderValues.CLOSE);
                    if (answerOn == null) {
                        ctx.write(resp); // flushed in channelReadComplete
                    } else {
                        answerOn.execute(() -> ctx.writeAndFlush(resp)); // Netty moves the write back to the loop
                    }
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    private static final io.netty.util.AttributeKey<Boolean> KA = io.netty.util.AttributeKey.valueOf("bench.ka");
}
