package io.metaquorum.security.certs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Writes the files that hold certificates and keys. Each is written beside its target and
 * renamed over it, so a reader never sees half a key store. A file with a private key is
 * created readable by its owner only (600) where the file system has POSIX permissions; it
 * never exists with wider permissions, not even for a moment.
 */
public final class CertificateFiles {
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> WORLD_READABLE = PosixFilePermissions.fromString("rw-r--r--");

    private CertificateFiles() {
    }

    /** A file with a private key or a secret: mode 600. */
    public static void writeSecret(Path file, byte[] content) throws IOException {
        write(file, content, OWNER_ONLY);
    }

    /** A file with certificates only, which are public: mode 644. */
    public static void writePublic(Path file, byte[] content) throws IOException {
        write(file, content, WORLD_READABLE);
    }

    /** Whether files under {@code path} have POSIX permissions (not on Windows, nor some mounts). */
    public static boolean supportsPosix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    private static void write(Path file, byte[] content, Set<PosixFilePermission> permissions) throws IOException {
        Path target = file.toAbsolutePath();
        Path directory = target.getParent();
        FileAttribute<?>[] attributes = supportsPosix(target)
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
                : new FileAttribute<?>[0];
        Path temporary = Files.createTempFile(directory, "." + target.getFileName(), ".tmp", attributes);
        try {
            Files.write(temporary, content);
            if (attributes.length > 0 && !permissions.equals(OWNER_ONLY)) {
                Files.setPosixFilePermissions(temporary, permissions);
            }
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }
}
