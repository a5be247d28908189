package io.tas;

import io.tas.cli.EndpointInventory;
import io.tas.error.ErrorCode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README and docs/: the inventory (docs/endpoints.md), its summary (README.md) and the error table (docs/errors.md)
 * are derived from code, the README stays short (issue 24: a newcomer reads it in five minutes), and every relative
 * link and repository path in them names a file that exists.
 */
class ReadmeTest {
    static final int README_MAX_LINES = 150;

    /** The text between `<!-- name:start -->` and `<!-- name:end -->` of one document; each marker exactly once. */
    private static String section(String file, String name) throws IOException {
        String doc = Files.readString(Path.of(file));
        String start = "<!-- " + name + ":start -->\n";
        String end = "<!-- " + name + ":end -->";
        int s = doc.indexOf(start);
        int e = doc.indexOf(end);
        assertThat(s).as(name + " start marker in " + file).isNotNegative();
        assertThat(e).as(name + " end marker after its start in " + file).isGreaterThan(s);
        assertThat(doc.indexOf(start, s + 1)).as(name + " start marker once in " + file).isNegative();
        return doc.substring(s + start.length(), e);
    }

    @Test
    void inventoryIsTheCatalog() throws IOException {
        assertThat(section("docs/endpoints.md", "inventory")).isEqualTo(EndpointInventory.markdown(App.productionRoutes()));
    }

    @Test
    void readmeSummaryIsTheCatalog() throws IOException {
        assertThat(section("README.md", "inventory-summary")).isEqualTo(EndpointInventory.summary(App.productionRoutes()));
    }

    @Test
    void catalogHasThirtySpecRows() {
        assertThat(java.util.Arrays.stream(io.tas.http.Endpoint.values()).filter(io.tas.http.Endpoint::inSpec).count()).isEqualTo(30);
    }

    @Test
    void everyErrorCodeIsInTheErrorTableWithItsStatusAndMessage() throws IOException {
        String table = section("docs/errors.md", "errors");
        for (ErrorCode c : ErrorCode.values()) {
            assertThat(table).as(c.name()).contains("| " + c.code() + " | " + c.httpStatus() + " | " + c.template() + " |");
        }
    }

    @Test
    void readmeIsShort() throws IOException {
        assertThat(Files.readAllLines(Path.of("README.md"))).as("README.md lines (move detail to docs/)").hasSizeLessThanOrEqualTo(README_MAX_LINES);
    }

    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    /** A repository path in backticks, e.g. `deploy/nginx/tas.conf`; placeholders ({uid}, <run-id>, *) are not paths. */
    private static final Pattern REPO_PATH = Pattern.compile("`((?:src|docs|bench|conformance|deploy|bin|\\.ci)/[^`\\s{}<>*|]*)`");
    private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6} (.+)$");

    @Test
    void everyRelativeLinkAndRepositoryPathResolves() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> s = Files.list(Path.of("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path doc : docs) {
            String text = Files.readString(doc);
            Matcher m = LINK.matcher(text);
            while (m.find()) {
                String link = m.group(1);
                if (link.matches("^[a-z]+:.*")) continue; // http:, https:, mailto:
                links++;
                int hash = link.indexOf('#');
                String file = hash < 0 ? link : link.substring(0, hash);
                Path target = file.isEmpty() ? doc : doc.resolveSibling(file).normalize();
                if (!Files.exists(target)) broken.add(doc + ": " + link);
                else if (hash >= 0 && target.toString().endsWith(".md") && !anchors(target).contains(link.substring(hash + 1))) {
                    broken.add(doc + ": " + link + " (no such heading)");
                }
            }
            Matcher p = REPO_PATH.matcher(text);
            while (p.find()) if (!Files.exists(Path.of(p.group(1)))) broken.add(doc + ": `" + p.group(1) + "`");
        }
        assertThat(links).as("relative links found").isGreaterThan(10);
        assertThat(broken).as("links and paths that name nothing").isEmpty();
    }

    /** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens. */
    private static List<String> anchors(Path md) throws IOException {
        List<String> out = new ArrayList<>();
        Matcher h = HEADING.matcher(Files.readString(md));
        while (h.find()) out.add(h.group(1).trim().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
        return out;
    }
}
