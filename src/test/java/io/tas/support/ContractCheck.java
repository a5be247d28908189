package io.tas.support;

import io.tas.http.AnswerTap;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Issue 29: installs the contract validator for the whole test JVM (autodetected: META-INF/services and
 * junit-platform.properties), and fails a test class when an answer given while it ran broke the OpenAPI documents.
 * Classes that run side by side (SimulationTest) may see each other's violations: the run fails either way. The running
 * totals go to target/contract/summary.txt, which `./tas test` prints at the end.
 * With -Dtas.contract.capture=FILE it records the answers' shapes instead (ContractCapture), to draft rows from.
 */
public final class ContractCheck implements BeforeAllCallback, AfterAllCallback {
    static final Path SUMMARY = Path.of("target", "contract", "summary.txt");
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(ContractCheck.class);
    private static final String CAPTURE = System.getProperty("tas.contract.capture", "");
    private static ContractValidator validator;

    /** The JVM's validator, installed on first use (none while capturing). */
    public static synchronized ContractValidator validator() {
        if (validator == null && CAPTURE.isBlank()) {
            validator = new ContractValidator();
            AnswerTap.install(validator);
        } else if (AnswerTap.installed() == null) {
            AnswerTap.install(ContractCapture.install(Path.of(CAPTURE)));
        }
        return validator;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        ContractValidator v = validator();
        if (v != null) context.getStore(NS).put("from", v.violationCount());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        ContractValidator v = validator();
        if (v == null) return;
        int from = context.getStore(NS).getOrDefault("from", Integer.class, 0);
        // The integration tests run in a JVM of their own (failsafe): their totals go beside the unit and API tests'.
        writeSummary(v, context.getRequiredTestClass().getSimpleName().endsWith("IT") ? "integration tests" : "unit and API tests");
        var found = v.violationsFrom(from);
        if (!found.isEmpty()) {
            throw new AssertionError(found.size() + " answers broke the OpenAPI document (openapi/rows.txt, admin-rows.txt):\n"
                    + String.join("\n", found.subList(0, Math.min(20, found.size()))));
        }
    }

    private static synchronized void writeSummary(ContractValidator v, String run) {
        Path summary = run.startsWith("integration") ? SUMMARY.resolveSibling("summary-it.txt") : SUMMARY;
        try {
            Files.createDirectories(summary.getParent());
            // Every violation so far, one a line, for a run that broke many (a class's failure shows its first 20).
            Files.write(summary.resolveSibling(summary.getFileName().toString().replace("summary", "violations")), v.violationsFrom(0),
                    StandardCharsets.UTF_8);
            Files.writeString(summary, String.format("CONTRACT %s: %,d answers of %d rows validated against the OpenAPI documents, %d violations%n",
                    run, v.answers(), v.rows(), v.violationCount()), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
