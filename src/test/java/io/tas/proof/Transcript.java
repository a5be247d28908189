package io.tas.proof;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A simulation's transcript: one canonical line per step. Server-minted IDs (DESIGN: 64-bit time-ordered IDs, 18 or 19
 * digits) depend on the ID generator's history, which a reset does not rewind, so each is written as #n, its
 * first-seen index in this run; everything else (UIDs, amounts, times of the test clock) is written as the server sent it.
 */
final class Transcript {
    /** A whole number of 15 to 19 digits, not part of a decimal: an ID. Times (13 digits) and UIDs (10) are left alone. */
    private static final Pattern ID = Pattern.compile("(?<![0-9.])[0-9]{15,19}(?![0-9.])");

    private final Map<String, Integer> ids = new HashMap<>();
    private final List<String> lines = new ArrayList<>();
    private final MessageDigest digest = sha256();

    /** Text with every ID replaced by its index (new IDs are numbered as they are met). */
    String normalise(String text) {
        Matcher m = ID.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) m.appendReplacement(out, "#" + ids.computeIfAbsent(m.group(), k -> ids.size()));
        m.appendTail(out);
        return out.toString();
    }

    void add(String line) {
        String l = normalise(line);
        lines.add(l);
        digest.update(l.getBytes(StandardCharsets.UTF_8));
        digest.update((byte) '\n');
    }

    List<String> lines() { return lines; }

    String hash() {
        try {
            return HexFormat.of().formatHex(((MessageDigest) digest.clone()).digest());
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException(e);
        }
    }

    static String sha256(String text) {
        return HexFormat.of().formatHex(sha256().digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
