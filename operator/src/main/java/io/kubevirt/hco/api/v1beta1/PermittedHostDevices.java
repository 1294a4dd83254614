package io.kubevirt.hco.api.v1beta1;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Required;

/** Host devices VMs may be given; entries with {@code disabled: true} stay in the list but are not permitted. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class PermittedHostDevices {

    @JsonPropertyDescription("PCI devices, by vendor:product selector.")
    public List<PciHostDevice> pciHostDevices;

    @JsonPropertyDescription("USB devices, by vendor and product.")
    public List<UsbHostDevice> usbHostDevices;

    @JsonPropertyDescription("Mediated devices, by mdev type name.")
    public List<MediatedHostDevice> mediatedDevices;

    /** What every permitted device entry has: the resource it is requested by, and two switches. */
    public abstract static class Entry {
        @JsonPropertyDescription("Resource name the device is advertised and requested by.")
        @Required
        public String resourceName;
        @JsonPropertyDescription("An external device plugin provides this resource.")
        public boolean externalResourceProvider;
        @JsonPropertyDescription("Keep the entry but do not permit the device.")
        public boolean disabled;
    }

    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    public static class PciHostDevice extends Entry {
        @JsonPropertyDescription("vendor_id:product_id of the PCI device on the host.")
        @Required
        public String pciDeviceSelector;
    }

    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    public static class UsbHostDevice extends Entry {
        @JsonPropertyDescription("Vendor and product of the USB devices.")
        public List<UsbSelector> selectors;
    }

    public static class UsbSelector {
        @Required
        public String vendor;
        @Required
        public String product;
    }

    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    public static class MediatedHostDevice extends Entry {
        @JsonPropertyDescription("Name of the mediated device type on the host.")
        @Required
        public String mdevNameSelector;
    }
}
