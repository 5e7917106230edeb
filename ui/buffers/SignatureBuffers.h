// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

namespace wb {
struct CompileResult;
}

namespace wb::ui {

class CompileController;
class SessionDocument;

/// Edit → Create Buffers from Signature: compiles the kernel in the editor now, then adds the
/// buffers and scalars its signature needs (SessionDocument::createFromSignature); created()
/// says what changed, or why nothing could.
class SignatureBuffers : public QObject {
    Q_OBJECT
public:
    SignatureBuffers(SessionDocument* document, CompileController* compiler,
                     QObject* parent = nullptr);

    void request();

Q_SIGNALS:
    void created(bool ok, const QString& summary);
    /// The session's reference kind changed (the new-project template's was removed).
    void referenceChanged();
    void logged(const QString& line);
    void statusMessage(const QString& text, int timeoutMs);

private:
    void apply(const CompileResult& compiled);

    SessionDocument* m_doc;
    CompileController* m_compiler;
    bool m_pending = false;
};

} // namespace wb::ui
