// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/buffers/SignatureBuffers.h"

#include "core/session/SignatureSpecs.h"
#include "ui/common/SessionDocument.h"
#include "ui/editor/CompileController.h"
#include "ui/editor/LiveCompiler.h"

#include <QStringList>

namespace wb::ui {

SignatureBuffers::SignatureBuffers(SessionDocument* document, CompileController* compiler,
                                   QObject* parent)
    : QObject(parent)
    , m_doc(document)
    , m_compiler(compiler)
{
    connect(compiler->kernel(), &LiveCompiler::compiled, this,
            [this](std::shared_ptr<const CompileResult> r) {
                if (!m_pending) return;
                m_pending = false;
                apply(*r);
            });
    connect(document, &SessionDocument::sessionReplaced, this, [this]() { m_pending = false; });
}

void SignatureBuffers::request()
{
    // The signature of the text in the editor: compile it now, apply when it comes back.
    m_pending = true;
    m_compiler->compileKernel(true);
}

void SignatureBuffers::apply(const CompileResult& compiled)
{
    const auto fail = [this](const QString& why) {
        Q_EMIT logged(tr("Create Buffers from Signature: %1").arg(why));
        Q_EMIT statusMessage(why, 8000);
        Q_EMIT created(false, why);
    };
    if (!compiled.ok) return fail(tr("the kernel does not compile; fix it first (see Problems)"));
    const KernelInfo* kernel = compiled.findKernel(m_doc->session().launch.kernel);
    if (!kernel && compiled.kernels.size() == 1) kernel = &compiled.kernels.front();
    if (!kernel)
        return fail(compiled.kernels.empty() ? tr("the source has no __global__ kernel")
                                             : tr("choose the kernel to launch in Launch first"));
    QStringList removed;
    const bool referenceBefore =
        m_doc->session().reference.kind == session::ReferenceSpec::Kind::Cpp;
    const session::SignatureSpecs added = m_doc->createFromSignature(*kernel, &removed);
    if (referenceBefore != (m_doc->session().reference.kind == session::ReferenceSpec::Kind::Cpp))
        Q_EMIT referenceChanged();
    const auto join = [](const std::vector<std::string>& v) {
        QStringList l;
        for (const std::string& s : v)
            l << QString::fromStdString(s);
        return l.join(QStringLiteral(", "));
    };
    QStringList parts;
    if (!added.addedBuffers.empty()) parts << tr("buffers %1").arg(join(added.addedBuffers));
    if (!added.addedScalars.empty()) parts << tr("scalars %1").arg(join(added.addedScalars));
    QString summary = parts.isEmpty() ? tr("%1: every parameter already has its buffer or scalar")
                                            .arg(QString::fromStdString(kernel->name))
                                      : tr("%1: added %2")
                                            .arg(QString::fromStdString(kernel->name),
                                                 parts.join(QStringLiteral("; ")));
    if (!removed.isEmpty())
        summary += tr("; removed the new-project template's unused %1").arg(removed.join(", "));
    if (!added.skipped.empty()) summary += tr("; skipped %1").arg(join(added.skipped));
    if (removed.contains(QStringLiteral("reference.cpp")))
        summary += tr(". Runs are not compared until you write a reference in reference.cpp");
    Q_EMIT logged(tr("Create Buffers from Signature — %1").arg(summary));
    for (const std::string& note : added.notes) // how each role was chosen, or why it is a guess
        Q_EMIT logged(tr("    %1").arg(QString::fromStdString(note)));
    Q_EMIT statusMessage(summary, 8000);
    Q_EMIT created(true, summary);
}

} // namespace wb::ui
