package io.locksmith.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Azurite's blob service ({@code azurite-blob} from npm). {@code --skipApiVersionCheck} lets newer
 * Azure SDKs in, whose API version Azurite does not know yet; {@code --loose} tolerates headers
 * it does not support.
 */
final class AzuriteRecipe implements Recipe {

    /** Azurite's fixed development account; its key is public, printed in Azure's own docs. */
    static final String ACCOUNT = "devstoreaccount1";

    static final String ACCOUNT_KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    private final Path binary;

    AzuriteRecipe(Path binary) {
        this.binary = binary;
    }

    /** The connection string for an Azurite blob endpoint. */
    static String connectionString(String host, int port) {
        return "DefaultEndpointsProtocol=http;AccountName=" + ACCOUNT + ";AccountKey=" + ACCOUNT_KEY
                + ";BlobEndpoint=http://" + host + ":" + port + "/" + ACCOUNT + ";";
    }

    @Override
    public Backend backend() {
        return Backend.AZURITE;
    }

    @Override
    public List<String> command(Path dir, int port) {
        return List.of(
                binary.toString(),
                "--blobHost",
                LocalServer.HOST,
                "--blobPort",
                Integer.toString(port),
                "--location",
                dir.resolve("data").toString(),
                "--silent",
                "--skipApiVersionCheck",
                "--loose");
    }

    @Override
    public boolean ready(int port) throws IOException {
        // any HTTP answer will do: an unsigned request gets an error status, but from Azurite
        return serverHeader(port).startsWith("Azurite");
    }

    private static String serverHeader(int port) throws IOException {
        return Probes.http("GET", "http://" + LocalServer.HOST + ":" + port + "/" + ACCOUNT + "?comp=list", null)
                .headers()
                .firstValue("Server")
                .orElse("");
    }

    @Override
    public String version(int port) throws IOException {
        String server = serverHeader(port);
        int slash = server.indexOf('/');
        return slash < 0 ? server : server.substring(slash + 1);
    }

    @Override
    public String uri(int port) {
        return connectionString(LocalServer.HOST, port);
    }
}
