package io.tas.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The figures the proof tests (issue 12) print: to the test's output and appended to target/proof/figures.txt, which
 * `./tas test` prints at the end of the run (surefire keeps test output in report files).
 */
public final class Proof {
    static final Path FIGURES = Path.of("target", "proof", "figures.txt");

    private Proof() {}

    /** One line "PROOF <format>" (String.format). */
    public static synchronized void figure(String format, Object... args) {
        String line = "PROOF " + String.format(format, args).strip();
        System.out.println(line);
        try {
            Files.createDirectories(FIGURES.getParent());
            Files.writeString(FIGURES, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One line "PROOF <figure>", already formatted. */
    public static void print(String figure) { figure("%s", figure); }

    /** -Dproof.long=true (or TAS_PROOF_LONG=1): the long versions of the proofs. */
    public static boolean longRun() {
        return Boolean.getBoolean("proof.long") || "1".equals(System.getenv("TAS_PROOF_LONG"));
    }
}
