package io.tas.support;

import io.tas.http.AnswerTap;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The integration tests' servers run in child processes (ServerProcess), where no tap of this JVM sees their answers:
 * the test's clients hand what they read from those ports to the contract validator instead, so the integration half
 * of the contract check validates the answers it reports.
 */
public final class ChildAnswers {
    private static final Set<Integer> API_PORTS = ConcurrentHashMap.newKeySet();
    private static final Set<Integer> ADMIN_PORTS = ConcurrentHashMap.newKeySet();

    private ChildAnswers() {}

    static void serving(int apiPort, int adminPort) {
        API_PORTS.add(apiPort);
        ADMIN_PORTS.add(adminPort);
    }

    /** An answer a client read: validated when a child server sent it (in-JVM servers' answers are tapped there). */
    static void read(String method, URI uri, String requestBody, int status, String body) {
        AnswerTap.Surface surface = API_PORTS.contains(uri.getPort()) ? AnswerTap.Surface.PUBLIC
                : ADMIN_PORTS.contains(uri.getPort()) ? AnswerTap.Surface.ADMIN : null;
        if (surface == null) return;
        ContractValidator v = ContractCheck.validator();
        if (v == null) return; // capturing shapes instead
        v.answeredElsewhere(surface, method, uri.getRawPath(), uri.getRawQuery(),
                requestBody.getBytes(StandardCharsets.UTF_8), status, body.getBytes(StandardCharsets.UTF_8));
    }
}
