package io.tas.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One signed request (GET by default; --method/--body/--n-from/--n-to as for `load`, with the first key of
 * --credentials-file); writes the response body to --out. Used to capture the real service's body for the baseline
 * and to probe an endpoint before loading it. A body template gets the last value of its cycle, so the load's first
 * request (the first value) still changes what the probe set.
 */
final class Fetch {

    static int run(Args a) throws Exception {
        String host = a.str("host", "127.0.0.1");
        int port = Integer.parseInt(a.required("port"));
        SignedRequests.Spec spec = SignedRequests.Spec.from(a, "/api/v3/account/settings");
        String path = spec.path();
        String out = a.str("out", null);
        List<String> expect = a.all("expect", List.of("00000"));
        Credentials creds = Credentials.all(a).getFirst();
        Transport transport = Transport.select(a.str("transport", "nio"));
        a.done();

        EventLoopGroup group = transport.group(1);
        try {
            CompletableFuture<FullHttpResponse> result = new CompletableFuture<>();
            Channel ch = new Bootstrap().group(group).channel(transport.clientChannel())
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel c) {
                            c.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(4 << 20),
                                    new SimpleChannelInboundHandler<FullHttpResponse>() {
                                        @Override
                                        protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse r) {
                                            result.complete(r.retainedDuplicate());
                                        }

                                        @Override
                                        public void exceptionCaught(ChannelHandlerContext ctx, Throwable t) {
                                            result.completeExceptionally(t);
                                        }

                                        @Override
                                        public void channelInactive(ChannelHandlerContext ctx) {
                                            result.completeExceptionally(new IllegalStateException("connection closed"));
                                        }
                                    });
                        }
                    }).connect(host, port).sync().channel();
            ch.writeAndFlush(new SignedRequests(creds, host, port, spec, spec.to() - spec.from()).next());
            FullHttpResponse r = result.get(15, TimeUnit.SECONDS);
            try {
                byte[] body = ByteBufUtil.getBytes(r.content());
                System.err.println("fetch " + spec.method() + " " + path + " -> " + r.status());
                for (Map.Entry<String, String> h : r.headers()) {
                    System.err.println("  " + h.getKey() + ": " + h.getValue());
                }
                String text = new String(body, StandardCharsets.UTF_8);
                System.err.println("  body (" + body.length + " bytes): "
                        + (text.length() > 500 ? text.substring(0, 500) + "..." : text));
                if (out != null) {
                    Files.write(Path.of(out), body);
                }
                if (r.status().code() != 200 || !expect.stream().allMatch(text::contains)) {
                    System.err.println("fetch: unexpected response (want 200 and a body containing " + String.join(" and ", expect) + ")");
                    return 3;
                }
                return 0;
            } finally {
                r.release();
                ch.close();
            }
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }
}
