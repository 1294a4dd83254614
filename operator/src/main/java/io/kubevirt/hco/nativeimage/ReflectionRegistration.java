package io.kubevirt.hco.nativeimage;

import io.kubevirt.hco.api.v1beta1.ApplicationAwareConfig;
import io.kubevirt.hco.api.v1beta1.CertRotation;
import io.kubevirt.hco.api.v1beta1.DataImportCronTemplate;
import io.kubevirt.hco.api.v1beta1.EvictionStrategy;
import io.kubevirt.hco.api.v1beta1.FilesystemOverhead;
import io.kubevirt.hco.api.v1beta1.HigherWorkloadDensity;
import io.kubevirt.hco.api.v1beta1.LogVerbosityConfig;
import io.kubevirt.hco.api.v1beta1.MediatedDevicesConfiguration;
import io.kubevirt.hco.api.v1beta1.ObsoleteCpus;
import io.kubevirt.hco.api.v1beta1.OperandResourceRequirements;
import io.kubevirt.hco.api.v1beta1.PermittedHostDevices;
import io.kubevirt.hco.api.v1beta1.StorageImportConfig;
import io.kubevirt.hco.api.v1beta1.TlsSecurityProfile;
import io.kubevirt.hco.api.v1beta1.TuningPolicy;
import io.kubevirt.hco.api.v1beta1.VirtualMachineOptions;
import io.kubevirt.hco.api.v1beta1.WorkloadUpdateStrategy;
import io.kubevirt.hco.api.v1beta1.CertRotationConfig;
import io.kubevirt.hco.api.v1beta1.FeatureGates;
import io.kubevirt.hco.api.v1beta1.GateBlocker;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.api.v1beta1.HyperConvergedSpec;
import io.kubevirt.hco.api.v1beta1.HyperConvergedStatus;
import io.kubevirt.hco.api.v1beta1.LiveMigrationConfig;
import io.kubevirt.hco.api.v1beta1.NodePlacement;
import io.kubevirt.hco.api.v1beta1.NodePlacementConfig;
import io.kubevirt.hco.api.v1beta1.RecordedVersion;
import io.kubevirt.hco.api.v1beta1.RelatedObject;
import io.kubevirt.hco.api.v1beta1.StatusCondition;
import io.kubevirt.hco.api.v1beta1.UninstallStrategy;
import io.kubevirt.hco.core.Blocker;
import io.kubevirt.hco.core.Condition;
import io.kubevirt.hco.core.GateExplanation;
import io.kubevirt.hco.core.GateReason;
import io.kubevirt.hco.core.SpecState;
import io.kubevirt.hco.explain.PublishedDecision;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Every class Jackson reads or writes by reflection, named explicitly for the native image. The
 * Operator SDK extension registers the primary resource it finds on reconcilers, but not the
 * nested status types reached only through {@link io.kubevirt.hco.components.SpecJson} or the
 * explain endpoint's records; relying on discovery would break those only in the native build.
 */
@RegisterForReflection(targets = {
        HyperConverged.class, HyperConvergedSpec.class, HyperConvergedStatus.class, FeatureGates.class,
        NodePlacementConfig.class, NodePlacement.class, CertRotationConfig.class, CertRotation.class,
        LiveMigrationConfig.class, UninstallStrategy.class, StatusCondition.class, RecordedVersion.class,
        GateBlocker.class, RelatedObject.class, TuningPolicy.class, EvictionStrategy.class, PermittedHostDevices.class,
        PermittedHostDevices.Entry.class, PermittedHostDevices.PciHostDevice.class, PermittedHostDevices.UsbHostDevice.class,
        PermittedHostDevices.UsbSelector.class, PermittedHostDevices.MediatedHostDevice.class,
        MediatedDevicesConfiguration.class, MediatedDevicesConfiguration.NodeMediatedDeviceTypes.class,
        OperandResourceRequirements.class, ObsoleteCpus.class, StorageImportConfig.class, WorkloadUpdateStrategy.class,
        DataImportCronTemplate.class, DataImportCronTemplate.Metadata.class, FilesystemOverhead.class,
        LogVerbosityConfig.class, TlsSecurityProfile.class, TlsSecurityProfile.Custom.class, TlsSecurityProfile.Type.class,
        TlsSecurityProfile.TlsVersion.class, VirtualMachineOptions.class, ApplicationAwareConfig.class,
        ApplicationAwareConfig.VmiCalcConfigName.class, HigherWorkloadDensity.class,
        GateExplanation.class, GateExplanation.Stabilization.class, GateExplanation.Upgrade.class,
        GateExplanation.ComponentEvidence.class, Blocker.class, Condition.class, GateReason.class, SpecState.class,
        PublishedDecision.class, PublishedDecision.Blocker.class })
public final class ReflectionRegistration {

    private ReflectionRegistration() {
    }
}
