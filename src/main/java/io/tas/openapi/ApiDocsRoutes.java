package io.tas.openapi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerResponse;
import io.tas.http.Json;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Serves an OpenAPI document and its viewer (issue 29): `{prefix}openapi.json`, and `{prefix}openapi`, Swagger UI from
 * the pinned webjar in the jar, so it works offline (D197). The document is built on its first request and kept.
 */
public final class ApiDocsRoutes {
    private static final String WEBJAR = "/META-INF/resources/webjars/swagger-ui/";
    /** The viewer's files served, and their types; nothing else of the webjar is reachable. */
    private static final Map<String, String> UI_FILES = Map.of(
            "swagger-ui.css", "text/css; charset=utf-8",
            "swagger-ui-bundle.js", "text/javascript; charset=utf-8",
            "swagger-ui-standalone-preset.js", "text/javascript; charset=utf-8",
            "favicon-32x32.png", "image/png");

    private final String prefix;
    private final String title;
    private final Supplier<ObjectNode> document;
    private volatile byte[] json;

    public ApiDocsRoutes(String prefix, String title, Supplier<ObjectNode> document) {
        this.prefix = prefix;
        this.title = title;
        this.document = document;
    }

    /** The version the documents carry: the jar's, or "dev" from classes. */
    public static String version() {
        String v = ApiDocsRoutes.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    public void register(HttpRouting.Builder r) {
        r.get(prefix + "openapi.json", (req, res) -> send(res, "application/json", json()));
        r.get(prefix + "openapi", (req, res) -> send(res, "text/html; charset=utf-8", page()));
        r.get(prefix + "openapi/ui/{file}", (req, res) -> {
            String file = req.path().pathParameters().get("file");
            String type = UI_FILES.get(file);
            byte[] bytes = type == null ? null : resource(file);
            if (bytes == null) { // as any unknown path: the envelope with 40404 (wire facts §3)
                var code = io.tas.error.ErrorCode.URL_NOT_FOUND;
                res.status(code.httpStatus());
                send(res, "application/json", Json.MAPPER.writeValueAsBytes(new io.tas.http.Envelope(code.code(), code.message(), System.currentTimeMillis(), null)));
                return;
            }
            res.header(HeaderNames.CACHE_CONTROL, "max-age=86400");
            send(res, type, bytes);
        });
    }

    /** The document's bytes (built once). */
    public byte[] json() {
        byte[] j = json;
        if (j == null) {
            try {
                j = Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(document.get());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            json = j;
        }
        return j;
    }

    private byte[] page() {
        String ui = prefix + "openapi/ui/";
        return ("""
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8"><title>%s</title>
                <link rel="icon" href="%sfavicon-32x32.png"><link rel="stylesheet" href="%sswagger-ui.css"></head>
                <body><div id="swagger-ui"></div>
                <script src="%sswagger-ui-bundle.js"></script><script src="%sswagger-ui-standalone-preset.js"></script>
                <script>window.ui = SwaggerUIBundle({url: "%sopenapi.json", dom_id: "#swagger-ui", deepLinking: true,
                  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: "StandaloneLayout"});</script>
                </body></html>
                """).formatted(title, ui, ui, ui, ui, prefix).getBytes(StandardCharsets.UTF_8);
    }

    private static final Map<String, byte[]> UI_CACHE = new java.util.concurrent.ConcurrentHashMap<>();

    private static byte[] resource(String file) {
        return UI_CACHE.computeIfAbsent(file, f -> {
            try (InputStream in = ApiDocsRoutes.class.getResourceAsStream(WEBJAR + swaggerUiVersion() + "/" + f)) {
                if (in == null) throw new IllegalStateException("the swagger-ui webjar lacks " + f);
                return in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** The webjar's version, from its Maven properties (the pom pins it). */
    private static String swaggerUiVersion() {
        try (InputStream in = ApiDocsRoutes.class.getResourceAsStream("/META-INF/maven/org.webjars/swagger-ui/pom.properties")) {
            java.util.Properties p = new java.util.Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("the swagger-ui webjar is not on the class path", e);
        }
    }

    private static void send(ServerResponse res, String type, byte[] bytes) {
        res.header(HeaderNames.CONTENT_TYPE, type);
        res.send(bytes);
    }
}
