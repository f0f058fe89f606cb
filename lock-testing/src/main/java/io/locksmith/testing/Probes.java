package io.locksmith.testing;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Speaks just enough of each server's protocol to tell whether it serves, without the client
 * libraries (those belong to the backend modules and the self-tests, not to this jar).
 */
final class Probes {

    private static final int CONNECT_TIMEOUT_MS = 1_000;
    private static final int READ_TIMEOUT_MS = 2_000;
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .connectTimeout(Duration.ofMillis(CONNECT_TIMEOUT_MS))
            .build();

    private Probes() {}

    private static Socket connect(String host, int port) throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
            socket.setSoTimeout(READ_TIMEOUT_MS);
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /**
     * Sends one Redis command and returns the reply: a String, a Long, a List, or null; an error
     * reply comes back as a String starting with '-'.
     */
    static Object redis(String host, int port, String... command) throws IOException {
        try (Socket socket = connect(host, port)) {
            StringBuilder request =
                    new StringBuilder("*").append(command.length).append("\r\n");
            for (String part : command) {
                request.append('$')
                        .append(part.getBytes(StandardCharsets.UTF_8).length)
                        .append("\r\n")
                        .append(part)
                        .append("\r\n");
            }
            socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.UTF_8));
            return readResp(socket.getInputStream());
        }
    }

    private static Object readResp(InputStream in) throws IOException {
        String line = readLine(in);
        char type = line.charAt(0);
        String rest = line.substring(1);
        switch (type) {
            case '+':
                return rest;
            case '-':
                return line;
            case ':':
                return Long.parseLong(rest);
            case '$': {
                int length = Integer.parseInt(rest);
                if (length < 0) {
                    return null;
                }
                byte[] bytes = new DataInputStream(in).readNBytes(length + 2);
                return new String(bytes, 0, length, StandardCharsets.UTF_8);
            }
            case '*': {
                int count = Integer.parseInt(rest);
                if (count < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    items.add(readResp(in));
                }
                return items;
            }
            default:
                throw new IOException("not a Redis reply: " + line);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                throw new IOException("connection closed mid-reply");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        if (line.size() == 0) {
            throw new IOException("empty reply line");
        }
        return line.toString(StandardCharsets.UTF_8);
    }

    /** A plain HTTP request; any status counts as an answer. */
    static HttpResponse<String> http(String method, String url, String body) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofMillis(READ_TIMEOUT_MS))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** A ZooKeeper four-letter command ({@code srvr}, {@code ruok}); returns the whole answer. */
    static String zookeeper(String host, int port, String word) throws IOException {
        try (Socket socket = connect(host, port)) {
            socket.getOutputStream().write(word.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * Logs in to PostgreSQL as the user (trust authentication) and returns the first message type:
     * 'R' once the server accepts logins, 'E' while it starts up or recovers.
     */
    static char postgres(String host, int port, String user, String database) throws IOException {
        try (Socket socket = connect(host, port)) {
            byte[] params = ("user\0" + user + "\0database\0" + database + "\0\0").getBytes(StandardCharsets.UTF_8);
            ByteBuffer startup = ByteBuffer.allocate(8 + params.length);
            startup.putInt(8 + params.length).putInt(196608).put(params); // protocol 3.0
            OutputStream out = socket.getOutputStream();
            out.write(startup.array());
            int type = socket.getInputStream().read();
            if (type < 0) {
                throw new IOException("postgres closed the connection");
            }
            out.write(new byte[] {'X', 0, 0, 0, 4}); // Terminate
            return (char) type;
        }
    }

    /**
     * Reads a MySQL/MariaDB server's greeting and returns the version it announces; fails on an
     * error packet (the server refuses connections).
     */
    static String mysqlGreeting(String host, int port) throws IOException {
        try (Socket socket = connect(host, port)) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] header = in.readNBytes(4);
            if (header.length < 4) {
                throw new IOException("no greeting");
            }
            int length = (header[0] & 0xff) | (header[1] & 0xff) << 8 | (header[2] & 0xff) << 16;
            byte[] payload = in.readNBytes(length);
            if (payload.length == 0 || payload[0] != 10) {
                throw new IOException("not a protocol 10 greeting: "
                        + new String(payload, StandardCharsets.UTF_8).replaceAll("[^\\p{Print}]", " "));
            }
            int end = 1;
            while (end < payload.length && payload[end] != 0) {
                end++;
            }
            return new String(payload, 1, end - 1, StandardCharsets.UTF_8);
        }
    }
}
