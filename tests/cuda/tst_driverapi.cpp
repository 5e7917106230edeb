// SPDX-License-Identifier: GPL-3.0-or-later
// The driver loader where there may be no GPU: the reason is clear, and nothing crashes.
#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/cuda/Context.h"
#include "core/cuda/CudaBackend.h"
#include "core/cuda/Device.h"
#include "core/cuda/HandleRegistry.h"
#include "core/cuda/detail/DriverApi.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <filesystem>

using wb::Error;
namespace cuda = wb::cuda;
using State = cuda::detail::DriverStatus::State;

class TestDriverApi : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void reasonMatchesState()
    {
        const auto reason = wb::cudaUnavailableReason();
        const cuda::detail::DriverStatus& status = cuda::detail::driverStatus();
        QCOMPARE(reason.has_value(), status.state != State::Usable);
        if (!reason) {
            QVERIFY(status.deviceCount > 0);
            QVERIFY(status.driverVersion >= cuda::detail::kMinimumDriverVersion);
            return;
        }
        qInfo("CUDA unavailable here: %s", reason->c_str());
        QVERIFY(!reason->empty());
        // This build machine has no driver, or only the toolkit's stub.
        const bool noDriver = reason->find("no NVIDIA driver") != std::string::npos;
        const bool stub = reason->find("stub library") != std::string::npos;
        const bool noDevice = reason->find("no CUDA device") != std::string::npos;
        const bool tooOld = reason->find("too old") != std::string::npos;
        QVERIFY2(noDriver || stub || noDevice || tooOld, reason->c_str());
        if (status.state == State::NoDriver || status.state == State::StubLibrary)
            QVERIFY(noDriver);
        if (status.state == State::StubLibrary) QVERIFY(stub);
    }

    void unavailableThrowsTheReason()
    {
        const auto reason = wb::cudaUnavailableReason();
        if (!reason) QSKIP("CUDA is usable here; the unavailable path cannot be exercised");
        const auto expectUnavailable = [&](auto&& call, const char* what) {
            try {
                call();
                QFAIL(what);
            } catch (const Error& e) {
                QCOMPARE(e.kind(), Error::Kind::Unavailable);
                QVERIFY2(std::string(e.what()).find(*reason) != std::string::npos, e.what());
            }
        };
        expectUnavailable([] { (void)cuda::Device::count(); }, "Device::count did not throw");
        expectUnavailable([] { (void)cuda::Device::get(0); }, "Device::get did not throw");
        expectUnavailable([] { (void)cuda::Context::primary(0); },
                          "Context::primary did not throw");
        expectUnavailable([] { (void)cuda::makeCudaBackend(0); }, "makeCudaBackend did not throw");
        QCOMPARE(cuda::HandleRegistry::instance().totalCount(), std::int64_t{0});
    }

    void probeNoSuchLibrary()
    {
        const auto status = cuda::detail::probeDriver({"libwarpbench-no-such-driver.so.1"});
        QCOMPARE(status.state, State::NoDriver);
        QVERIFY(status.reason.find("no NVIDIA driver") != std::string::npos);
        QVERIFY(status.reason.find("libwarpbench-no-such-driver.so.1") != std::string::npos);
    }

    void probeStubLibrary()
    {
        if (cuda::detail::driverStatus().state == State::Usable)
            QSKIP("a real driver is loaded; the stub (same soname) is not probed next to it");
        std::string stub = WB_CUDA_STUB_LIBRARY;
        for (const char* candidate :
             {"/usr/local/cuda/lib64/stubs/libcuda.so", "/usr/local/cuda/lib/stubs/libcuda.so"})
            if (!std::filesystem::exists(stub) && std::filesystem::exists(candidate))
                stub = candidate;
        if (!std::filesystem::exists(stub))
            QSKIP("the CUDA toolkit's stub libcuda.so is not installed");
        const auto status = cuda::detail::probeDriver({stub});
        QCOMPARE(status.state, State::StubLibrary);
        QVERIFY2(status.reason.find("stub library") != std::string::npos, status.reason.c_str());
        QVERIFY(status.reason.find("CUDA_ERROR_STUB_LIBRARY") != std::string::npos);
    }

    void registryStartsEmpty()
    {
        const auto& registry = cuda::HandleRegistry::instance();
        for (int k = 0; k < static_cast<int>(cuda::HandleKind::Count); ++k) {
            const auto usage = registry.usage(static_cast<cuda::HandleKind>(k));
            QCOMPARE(usage.count, std::int64_t{0});
            QCOMPARE(usage.bytes, std::int64_t{0});
        }
        QCOMPARE(QString(cuda::handleKindName(cuda::HandleKind::DeviceBuffer)),
                 QString("device buffer"));
    }
};

WB_QTEST_GUILESS_MAIN(TestDriverApi)
#include "tst_driverapi.moc"
