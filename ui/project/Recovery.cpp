// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/project/Recovery.h"

#include "core/session/ProjectFile.h"
#include "ui/common/SessionDocument.h"
#include "ui/project/Autosave.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>

#include <filesystem>

namespace wb::ui {

Recovery::Recovery(SessionDocument* document, Autosave* autosave, QWidget* barParent)
    : QObject(barParent)
    , m_doc(document)
    , m_autosave(autosave)
{
    m_autosave->setSnapshotProvider([this]() { return snapshot(); });
    m_bar = new QFrame(barParent);
    m_bar->setObjectName(QStringLiteral("recoveryBar"));
    m_bar->setStyleSheet(
        QStringLiteral("#recoveryBar { background: #d9ecff; border: 1px solid #0b3558; "
                       "border-radius: 3px; } #recoveryBar QLabel { color: #0b3558; }"));
    auto* rl = new QHBoxLayout(m_bar);
    rl->setContentsMargins(8, 4, 4, 4);
    m_label = new QLabel(m_bar);
    m_label->setWordWrap(true);
    auto* restoreButton = new QPushButton(tr("Restore"), m_bar);
    auto* discard = new QPushButton(tr("Discard"), m_bar);
    rl->addWidget(m_label, 1);
    rl->addWidget(restoreButton);
    rl->addWidget(discard);
    m_bar->hide();

    connect(restoreButton, &QPushButton::clicked, this, [this]() {
        if (m_pending.isEmpty()) return;
        const QByteArray content = m_pending.takeFirst();
        const QString path = m_pendingPaths.takeFirst();
        if (restore(content))
            QFile::remove(path),
                QFile::remove(QFileInfo(path).absolutePath() + u'/' +
                              QFileInfo(path).completeBaseName() + QStringLiteral(".lock"));
        m_bar->setVisible(!m_pending.isEmpty());
    });
    connect(discard, &QPushButton::clicked, this, [this]() {
        for (const QString& path : m_pendingPaths)
            Autosave::discard({path, {}, {}});
        m_pending.clear();
        m_pendingPaths.clear();
        m_bar->hide();
    });
}

QByteArray Recovery::snapshot() const
{
    QJsonObject o;
    o.insert(QStringLiteral("format"), QStringLiteral("warpbench-autosave"));
    o.insert(QStringLiteral("version"), 1);
    o.insert(QStringLiteral("savedAt"),
             QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    // An example's copy is temporary: recovery goes back to the shipped example's folder.
    const QString example = m_doc->exampleOf();
    o.insert(QStringLiteral("projectPath"), example.isEmpty() ? m_doc->filePath() : QString());
    o.insert(QStringLiteral("baseDir"),
             example.isEmpty() ? QString::fromStdString(m_doc->session().baseDir.string())
                               : QFileInfo(example).absolutePath());
    if (!example.isEmpty()) o.insert(QStringLiteral("exampleOf"), example);
    o.insert(QStringLiteral("project"), QString::fromStdString(m_doc->snapshotJson()));
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

int Recovery::offer()
{
    const QList<Autosave::Recovered> found = m_autosave->findRecoverable();
    m_pending.clear();
    m_pendingPaths.clear();
    for (const Autosave::Recovered& r : found) {
        m_pending.append(r.content);
        m_pendingPaths.append(r.snapshotPath);
    }
    if (found.isEmpty()) return 0;
    const QJsonObject o = QJsonDocument::fromJson(found.first().content).object();
    const QString project = o.value(QStringLiteral("projectPath")).toString();
    m_label->setText(
        tr("<b>Recovered work</b> from a session that ended unexpectedly (%1, saved %2). "
           "Restore it?")
            .arg(project.isEmpty() ? tr("untitled project") : QFileInfo(project).fileName(),
                 found.first().savedAt.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))));
    m_bar->show();
    return static_cast<int>(found.size());
}

QString Recovery::text() const
{
    return m_bar->isVisible() ? m_label->text() : QString();
}

bool Recovery::restore(const QByteArray& content)
{
    const QJsonObject o = QJsonDocument::fromJson(content).object();
    if (o.value(QStringLiteral("format")).toString() != u"warpbench-autosave") return false;
    const QString path = o.value(QStringLiteral("projectPath")).toString();
    const std::filesystem::path base = o.value(QStringLiteral("baseDir")).toString().toStdString();
    try {
        session::Session s = session::ProjectFile::fromJson(
            o.value(QStringLiteral("project")).toString().toStdString(),
            base.empty() ? std::filesystem::current_path() : base, "autosave");
        const QString kernel = QString::fromStdString(s.kernelSource);
        const QString reference = QString::fromStdString(s.reference.source);
        // Recovered work on an example stays an example's copy: Save asks where to keep it.
        m_doc->setSession(std::move(s), path, kernel, reference,
                          o.value(QStringLiteral("exampleOf")).toString());
        m_doc->setModified(true);
        m_autosave->noteModified();
        Q_EMIT logged(tr("restored autosaved work%1")
                          .arg(path.isEmpty() ? QString() : tr(" of %1").arg(path)));
        return true;
    } catch (const std::exception& e) {
        Q_EMIT logged(tr("cannot restore autosave: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
}

} // namespace wb::ui
