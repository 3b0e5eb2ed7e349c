package io.proofgate.adapter;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * {@code proofgate adapter}: {@link AdapterSession} on standard input and output, the way any implementation's adapter
 * runs under {@code proofgate conform --exec}. Answers are flushed once no more input is waiting, so a scenario the kit
 * sent ahead is answered in one write.
 */
public final class ReferenceAdapter {

    private ReferenceAdapter() {}

    public static void main(String[] args) throws IOException {
        serve(System.in, System.out);
    }

    /** Answers every line of {@code in} until it ends. */
    public static void serve(InputStream in, OutputStream out) throws IOException {
        AdapterSession session = new AdapterSession();
        BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
        Writer answers = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        String line;
        while ((line = lines.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            for (String answer : session.answer(line)) {
                answers.write(answer);
                answers.write('\n');
            }
            if (!lines.ready()) {
                answers.flush();
            }
        }
        answers.flush();
    }
}
