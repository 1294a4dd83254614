package io.kubevirt.hco.api.v1beta1;

public enum UninstallStrategy {
    BlockUninstallIfWorkloadsExist,
    RemoveWorkloads
}
