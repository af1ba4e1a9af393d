package io.metaquorum.security.grpc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * What a set of files looks like on disk now: each one's modification time, size and file
 * key (inode). Two equal signatures mean nothing was rewritten or renamed into place, which
 * is how certificate files are rotated (a copy, or an atomic {@code mv} of a new file).
 */
record FileSignature(List<String> parts) {
    static FileSignature of(List<Path> files) {
        List<String> parts = new ArrayList<>();
        for (Path file : files) {
            try {
                BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
                parts.add(file + "@" + attributes.lastModifiedTime().toMillis() + "/" + attributes.size() + "/"
                        + attributes.fileKey());
            } catch (IOException e) {
                parts.add(file + "@missing");
            }
        }
        return new FileSignature(List.copyOf(parts));
    }
}
