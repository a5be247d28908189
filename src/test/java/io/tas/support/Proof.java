package io.tas.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Issue 12 figures: one "PROOF ..." line each. Surefire sends a test's stdout to its report file, so the line is also
 * appended to target/proof-figures.txt, which a CI log can print after the run.
 */
public final class Proof {
    public static final Path FIGURES = Path.of("target", "proof-figures.txt");

    private Proof() {}

    public static synchronized void print(String figure) {
        String line = "PROOF " + figure;
        System.out.println(line);
        try {
            Files.createDirectories(FIGURES.getParent());
            Files.writeString(FIGURES, line + System.lineSeparator(), StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** -Dproof.long=true (or TAS_PROOF_LONG=1): the long versions of the proofs. */
    public static boolean longRun() {
        return Boolean.getBoolean("proof.long") || "1".equals(System.getenv("TAS_PROOF_LONG"));
    }
}
