package io.tas.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** D114: H2 files append every chunk (REUSE_SPACE=FALSE), and a start rewrites a mostly dead file with its live data. */
class H2FilesTest {
    @Test
    void filesGetDurableSettingsAndAUrlKeepsItsOwn() {
        assertThat(H2Files.settings("jdbc:h2:file:./data/tas"))
                .isEqualTo("jdbc:h2:file:./data/tas;WRITE_DELAY=0;REUSE_SPACE=FALSE;LOCK_TIMEOUT=10000;DB_CLOSE_ON_EXIT=FALSE");
        assertThat(H2Files.settings("jdbc:h2:mem:t;DB_CLOSE_DELAY=-1")).isEqualTo("jdbc:h2:mem:t;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000;DB_CLOSE_ON_EXIT=FALSE");
        assertThat(H2Files.settings("jdbc:h2:file:/x;reuse_space=true")).contains(";reuse_space=true").doesNotContain("REUSE_SPACE=FALSE");
        assertThat(H2Files.settings("jdbc:postgresql://h/db")).isEqualTo("jdbc:postgresql://h/db");
    }

    @Test
    void theFileAUrlOpens() {
        assertThat(H2Files.file("jdbc:h2:file:./data/tas;WRITE_DELAY=0")).contains(Path.of("./data/tas.mv.db"));
        assertThat(H2Files.file("jdbc:h2:/srv/tas")).contains(Path.of("/srv/tas.mv.db"));
        assertThat(H2Files.file("jdbc:h2:~/tas")).contains(Path.of(System.getProperty("user.home") + "/tas.mv.db"));
        assertThat(H2Files.file("jdbc:h2:mem:x")).isEqualTo(Optional.empty());
        assertThat(H2Files.file("jdbc:h2:tcp://h/x")).isEmpty();
        assertThat(H2Files.file("jdbc:h2:nio:/x")).isEmpty();
    }

    /** D131: only an embedded file that H2 locks to this process; a URL that lets other processes in is not. */
    @Test
    void onlyAnEmbeddedLockedFileIsThisProcesssAlone() {
        assertThat(H2Files.exclusive("jdbc:h2:file:./data/tas;WRITE_DELAY=0")).isTrue();
        assertThat(H2Files.exclusive("jdbc:h2:./data/tas")).isTrue();
        assertThat(H2Files.exclusive("jdbc:h2:file:./data/tas;AUTO_SERVER=TRUE")).isFalse();
        assertThat(H2Files.exclusive("jdbc:h2:file:./data/tas;file_lock=no")).isFalse();
        assertThat(H2Files.exclusive("jdbc:h2:mem:tas;DB_CLOSE_DELAY=-1")).isFalse();
        assertThat(H2Files.exclusive("jdbc:h2:tcp://localhost/./data/tas")).isFalse();
        assertThat(H2Files.exclusive("jdbc:postgresql://127.0.0.1:5432/tas")).isFalse();
    }

    @Test
    void aMostlyDeadFileIsRewrittenWithItsLiveDataAndADenseOneIsLeft(@TempDir Path dir) throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("db").toAbsolutePath();
        Path file = H2Files.file(url).orElseThrow();
        try (Connection c = DriverManager.getConnection(H2Files.settings(url), "sa", ""); Statement s = c.createStatement()) {
            s.execute("create table t (id int primary key, pad varchar(1000))");
            s.execute("insert into t values (0, 'kept')");
            // Many commits of rows deleted again: with every chunk appended, the file keeps all of them.
            try (PreparedStatement ins = c.prepareStatement("insert into t values (?, ?)")) {
                for (int i = 1; i <= 2_000; i++) {
                    ins.setInt(1, i);
                    ins.setString(2, "x".repeat(1000));
                    ins.executeUpdate();
                }
            }
            s.execute("delete from t where id > 0");
        }
        long before = Files.size(file);
        assertThat(H2Files.compactIfSparse(url, before + 1)).as("below the size bound").isFalse();
        assertThat(Files.size(file)).isEqualTo(before);

        assertThat(H2Files.compactIfSparse(url, 0)).isTrue();
        long after = Files.size(file);
        assertThat(after).as("rewritten smaller than " + before).isLessThan(before / 2);
        assertThat(H2Files.compactIfSparse(url, 0)).as("now dense").isFalse();
        try (Connection c = DriverManager.getConnection(H2Files.settings(url), "sa", "");
             ResultSet rs = c.createStatement().executeQuery("select id, pad from t")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(2)).isEqualTo("kept");
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void aFileThatReusesSpaceIsLeftToH2(@TempDir Path dir) throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("db").toAbsolutePath() + ";REUSE_SPACE=TRUE";
        try (Connection c = DriverManager.getConnection(H2Files.settings(url), "sa", "")) {
            c.createStatement().execute("create table t (id int)");
        }
        assertThat(H2Files.compactIfSparse(url, 0)).isFalse();
    }
}
