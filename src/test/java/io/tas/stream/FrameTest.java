package io.tas.stream;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * D212: the frames the server writes itself, read back as RFC 6455 §5.2 lays them out (independently of the writer):
 * FIN and the opcode, no mask, the 7-bit length up to 125, then 126 and a 16-bit length, then 127 and a 64-bit length.
 */
class FrameTest {
    /** The payload of a frame, checked field by field; the frame must hold nothing after it. */
    private static byte[] read(byte[] frame, int opcode) {
        ByteBuffer b = ByteBuffer.wrap(frame);
        int b0 = b.get() & 0xff, b1 = b.get() & 0xff;
        assertThat(b0).as("FIN and the opcode").isEqualTo(0x80 | opcode);
        assertThat(b1 & 0x80).as("a server's frame is not masked").isZero();
        long len = b1 & 0x7f;
        if (len == 126) len = b.getShort() & 0xffff;
        else if (len == 127) len = b.getLong();
        assertThat((long) b.remaining()).as("the payload is the rest of the frame").isEqualTo(len);
        byte[] payload = new byte[b.remaining()];
        b.get(payload);
        return payload;
    }

    @Test
    void eachLengthTakesTheHeaderTheProtocolGivesIt() {
        for (int n : new int[] {0, 1, 125, 126, 127, 65_535, 65_536, 200_000}) {
            String text = "x".repeat(n);
            byte[] frame = StreamConnection.textFrame(text);
            int header = n < 126 ? 2 : n < 65_536 ? 4 : 10;
            assertThat(frame).as("length " + n).hasSize(header + n);
            assertThat(new String(read(frame, 0x1), StandardCharsets.UTF_8)).isEqualTo(text);
        }
    }

    @Test
    void textIsUtf8AndTheLengthCountsBytes() {
        String text = "ä€𝄞"; // 2 + 3 + 4 bytes
        assertThat(read(StreamConnection.textFrame(text), 0x1)).isEqualTo(text.getBytes(StandardCharsets.UTF_8)).hasSize(9);
    }

    @Test
    void aPongCarriesThePingsPayload() {
        assertThat(read(StreamConnection.frame(StreamConnection.OP_PONG, new byte[] {1, 2, 3}), 0xA)).containsExactly(1, 2, 3);
    }

    @Test
    void subscribersWhoSentTheSameArgShareOneFrameAndOthersGetTheirOwn() {
        StreamConnection.Data data = StreamConnection.Data.of(java.util.List.of(java.util.Map.of("p", "1")));
        byte[] first = data.frame("snapshot", "{\"topic\":\"ticker\"}", 7);
        assertThat(data.frame("snapshot", new String("{\"topic\":\"ticker\"}"), 7)).isSameAs(first);
        byte[] other = data.frame("snapshot", "{\"topic\":\"ticker\",\"symbol\":\"X\"}", 7);
        assertThat(new String(read(other, 0x1), StandardCharsets.UTF_8))
                .isEqualTo("{\"action\":\"snapshot\",\"arg\":{\"topic\":\"ticker\",\"symbol\":\"X\"},\"ts\":7,\"data\":[{\"p\":\"1\"}]}");
        assertThat(new String(read(data.frame("update", "{\"topic\":\"ticker\"}", 8), 0x1), StandardCharsets.UTF_8))
                .isEqualTo("{\"action\":\"update\",\"arg\":{\"topic\":\"ticker\"},\"ts\":8,\"data\":[{\"p\":\"1\"}]}");
    }
}
